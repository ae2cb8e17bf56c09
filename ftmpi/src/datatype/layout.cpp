// Composition, compaction and traversal of Layouts (see layout.hpp).
#include "layout.hpp"

#include <algorithm>
#include <cstring>

namespace ftmpi::dt {

namespace {

// A run repeated with a stride equal to its length is one longer run.
Block normalized(Block b) {
    if (b.count <= 1) {
        b.count = 1;
        b.stride = 0;
    } else if (b.stride == static_cast<Aint>(b.len)) {
        b.len *= b.count;
        b.count = 1;
        b.stride = 0;
    }
    return b;
}

// Appends a block, merging it into the previous one when the two are
// adjacent single runs.
void append(std::vector<Block> &out, const Block &b) {
    if (b.len == 0 || b.count == 0) return;
    if (!out.empty()) {
        Block &last = out.back();
        if (last.count == 1 && b.count == 1 && last.off + static_cast<Aint>(last.len) == b.off) {
            last.len += b.len;
            return;
        }
    }
    out.push_back(normalized(b));
}

// The same bytes with reps == 1.
std::vector<Block> expanded(const Layout &l) {
    std::vector<Block> out;
    out.reserve(l.blocks.size() * l.reps);
    for (size_t r = 0; r < l.reps; ++r)
        for (Block b : l.blocks) {
            b.off += static_cast<Aint>(r) * l.rep_stride;
            append(out, b);
        }
    return out;
}

}  // namespace

size_t Layout::rep_bytes() const {
    size_t n = 0;
    for (const Block &b : blocks) n += b.len * b.count;
    return n;
}

size_t Layout::runs() const {
    size_t n = 0;
    for (const Block &b : blocks) n += b.count;
    return n * reps;
}

Layout shifted(const Layout &child, Aint shift) {
    Layout out = child;
    for (Block &b : out.blocks) b.off += shift;
    out.starts.clear();
    return out;
}

Layout replicate(const Layout &child, size_t n, Aint stride) {
    if (n == 0 || child.blocks.empty()) return {};
    if (n == 1) return child;
    Layout out;
    if (child.reps == 1) {
        if (child.blocks.size() == 1) {
            const Block &b = child.blocks[0];
            if (b.count == 1) {
                out.blocks.push_back(normalized({b.off, b.len, n, stride}));
                return out;
            }
            if (stride == static_cast<Aint>(b.count) * b.stride) {
                out.blocks.push_back(normalized({b.off, b.len, b.count * n, b.stride}));
                return out;
            }
        }
        out.blocks = child.blocks;
        out.reps = n;
        out.rep_stride = stride;
        return out;
    }
    if (stride == static_cast<Aint>(child.reps) * child.rep_stride) {
        out.blocks = child.blocks;
        out.reps = child.reps * n;
        out.rep_stride = child.rep_stride;
        return out;
    }
    // Two regular levels are all a Layout holds: the child's own repeat is
    // listed out, the new one becomes the outer repeat.
    out.blocks = expanded(child);
    out.reps = n;
    out.rep_stride = stride;
    return out;
}

Layout concat(const std::vector<Layout> &parts) {
    Layout out;
    for (const Layout &p : parts)
        for (const Block &b : expanded(p)) append(out.blocks, b);
    return out;
}

Layout compact(const Layout &in) {
    // 1. Maximal runs: merge adjacent single runs.
    std::vector<Block> merged;
    merged.reserve(in.blocks.size());
    for (const Block &b : in.blocks) append(merged, b);

    // 2. Fold equal runs at equal spacing into one repeated block.
    Layout out;
    out.reps = in.reps;
    out.rep_stride = in.rep_stride;
    for (size_t i = 0; i < merged.size();) {
        const Block &first = merged[i];
        size_t j = i + 1;
        if (first.count == 1 && j < merged.size() && merged[j].count == 1 && merged[j].len == first.len) {
            const Aint step = merged[j].off - first.off;
            while (j < merged.size() && merged[j].count == 1 && merged[j].len == first.len &&
                   merged[j].off - merged[j - 1].off == step)
                ++j;
            out.blocks.push_back(normalized({first.off, first.len, j - i, step}));
        } else {
            out.blocks.push_back(first);
            j = i + 1;
        }
        i = j;
    }

    // 3. A single block repeated regularly needs no outer repeat.
    if (out.reps > 1 && out.blocks.size() == 1) {
        const Block b = out.blocks[0];
        if (b.count == 1) {
            out.blocks[0] = normalized({b.off, b.len, out.reps, out.rep_stride});
            out.reps = 1;
            out.rep_stride = 0;
        } else if (out.rep_stride == static_cast<Aint>(b.count) * b.stride) {
            out.blocks[0] = normalized({b.off, b.len, b.count * out.reps, b.stride});
            out.reps = 1;
            out.rep_stride = 0;
        }
    }
    if (out.reps <= 1) {
        out.reps = 1;
        out.rep_stride = 0;
    }
    index(out);
    return out;
}

void index(Layout &l) {
    l.starts.resize(l.blocks.size());
    size_t at = 0;
    for (size_t b = 0; b < l.blocks.size(); ++b) {
        l.starts[b] = at;
        at += l.blocks[b].len * l.blocks[b].count;
    }
}

namespace {

// The one traversal behind pack, unpack and walk: calls
// piece(byte offset from the buffer's origin, position in the stream done
// so far, bytes) for every piece of a run from stream byte `offset` on.
template <class Piece>
size_t traverse(const Layout &l, Aint extent, size_t count, size_t offset, size_t len, Piece &&piece) {
    const size_t rep_bytes = l.rep_bytes();
    const size_t elem_bytes = rep_bytes * l.reps;
    if (elem_bytes == 0 || count == 0 || len == 0) return 0;
    const size_t total = elem_bytes * count;
    if (offset >= total) return 0;
    const size_t todo = std::min(len, total - offset);

    // Where `offset` falls: element, rep, block, copy, byte within the run.
    size_t e = offset / elem_bytes;
    size_t rem = offset % elem_bytes;
    size_t r = rem / rep_bytes;
    rem %= rep_bytes;
    size_t b = 0;
    if (l.starts.size() == l.blocks.size()) {
        b = static_cast<size_t>(std::upper_bound(l.starts.begin(), l.starts.end(), rem) - l.starts.begin()) - 1;
        rem -= l.starts[b];
    } else {
        while (rem >= l.blocks[b].len * l.blocks[b].count) {
            rem -= l.blocks[b].len * l.blocks[b].count;
            ++b;
        }
    }
    size_t i = rem / l.blocks[b].len;
    size_t w = rem % l.blocks[b].len;

    size_t done = 0;
    const size_t nblocks = l.blocks.size();
    for (; e < count; ++e, r = 0) {
        const Aint ebase = static_cast<Aint>(e) * extent;
        for (; r < l.reps; ++r, b = 0) {
            const Aint rbase = ebase + static_cast<Aint>(r) * l.rep_stride;
            for (; b < nblocks; ++b, i = 0) {
                const Block &blk = l.blocks[b];
                for (; i < blk.count; ++i, w = 0) {
                    const size_t n = std::min(blk.len - w, todo - done);
                    piece(rbase + blk.off + static_cast<Aint>(i) * blk.stride + static_cast<Aint>(w), done, n);
                    done += n;
                    if (done == todo) return done;
                }
            }
        }
    }
    return done;
}

// memcpy with the common small sizes inlined: a struct's fields are runs of
// a few bytes, and a libc call per field would dominate.
// base + offset without pointer arithmetic: MPI_BOTTOM is a null base with
// absolute addresses as offsets, which C++ pointer arithmetic forbids.
inline const unsigned char *at(const unsigned char *base, Aint off) {
    return reinterpret_cast<const unsigned char *>(reinterpret_cast<std::uintptr_t>(base) +
                                                   static_cast<std::uintptr_t>(off));
}
inline unsigned char *at(unsigned char *base, Aint off) {
    return reinterpret_cast<unsigned char *>(reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(off));
}

inline void copy_run(unsigned char *to, const unsigned char *from, size_t n) {
    switch (n) {
    case 1: *to = *from; return;
    case 2: std::memcpy(to, from, 2); return;
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    case 16: std::memcpy(to, from, 16); return;
    default: std::memcpy(to, from, n);
    }
}

// The whole stream at once (MPI_Pack, eager sends): no position to find and
// no segment end to watch, so the loops only copy.
template <bool ToStream>
size_t whole(const Layout &l, Aint extent, size_t count, const unsigned char *user, unsigned char *stream_out,
             const unsigned char *stream_in) {
    size_t done = 0;
    for (size_t e = 0; e < count; ++e) {
        const Aint ebase = static_cast<Aint>(e) * extent;
        for (size_t r = 0; r < l.reps; ++r) {
            const Aint rbase = ebase + static_cast<Aint>(r) * l.rep_stride;
            for (const Block &blk : l.blocks) {
                Aint at_off = rbase + blk.off;
                for (size_t i = 0; i < blk.count; ++i, at_off += blk.stride) {
                    if constexpr (ToStream)
                        copy_run(stream_out + done, at(user, at_off), blk.len);
                    else
                        copy_run(at(const_cast<unsigned char *>(user), at_off), stream_in + done, blk.len);
                    done += blk.len;
                }
            }
        }
    }
    return done;
}

}  // namespace

size_t walk(const Layout &l, Aint extent, size_t count, const unsigned char *base, size_t offset, size_t len,
            const std::function<void(const unsigned char *, size_t)> &visit) {
    return traverse(l, extent, count, offset, len, [&](Aint off, size_t, size_t n) { visit(at(base, off), n); });
}

size_t pack_bytes(const Layout &l, Aint extent, size_t count, const unsigned char *base, size_t offset,
                  unsigned char *out, size_t len) {
    if (offset == 0 && len >= count * l.bytes()) return whole<true>(l, extent, count, base, out, nullptr);
    return traverse(l, extent, count, offset, len,
                    [&](Aint off, size_t done, size_t n) { copy_run(out + done, at(base, off), n); });
}

size_t unpack_bytes(const Layout &l, Aint extent, size_t count, unsigned char *base, size_t offset,
                    const unsigned char *in, size_t len) {
    if (offset == 0 && len >= count * l.bytes()) return whole<false>(l, extent, count, base, nullptr, in);
    return traverse(l, extent, count, offset, len,
                    [&](Aint off, size_t done, size_t n) { copy_run(at(base, off), in + done, n); });
}

}  // namespace ftmpi::dt
