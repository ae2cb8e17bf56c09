// Two-phase collective buffering (del Rosario, Bordawekar, Choudhary 1993;
// ROMIO's generic collective I/O). The accessed range of the file, from the
// lowest offset any member touches to the highest, is cut into one
// contiguous file domain per aggregator. Phase one: every member cuts its
// segments at the domain boundaries and exchanges (offset, length) pieces —
// and, for a write, their data — with the aggregators (alltoallv on the
// file's communicator). Phase two: each aggregator merges the pieces of its
// domain into maximal covered ranges and writes (or reads) them in blocks of
// at most cb_buffer_size bytes; a read's data goes back the same way.
// With romio_cb_write / romio_cb_read automatic (the default) all of this
// happens only when the members' ranges interleave in the file or one is
// cut into many pieces; otherwise every member accesses its own range.
// Holes between covered ranges are skipped, not read and rewritten, so no
// member's data is ever overwritten with a stale copy.
#include "internals.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <unistd.h>

namespace ftmpi::io {
namespace {

constexpr MPI_Offset max_domain = MPI_Offset{1} << 30;

// A piece of some member's access inside this aggregator's domain, with
// where its bytes are (write: received data; read: the reply to fill).
struct Piece {
    MPI_Offset off;
    size_t len;
    unsigned char *data;
    MPI_Offset end() const { return off + static_cast<MPI_Offset>(len); }
};

// A piece of this member's own access, and its place in the stream.
struct Mine {
    MPI_Offset off;
    size_t len;
    size_t stream_pos;
};

int full_io(int fd, bool write, unsigned char *p, size_t len, MPI_Offset off, size_t *moved) {
    *moved = 0;
    while (*moved < len) {
        const ssize_t n = write
            ? ::pwrite(fd, p + *moved, len - *moved, static_cast<off_t>(off) + static_cast<off_t>(*moved))
            : ::pread(fd, p + *moved, len - *moved, static_cast<off_t>(off) + static_cast<off_t>(*moved));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return error_of_errno(errno);
        if (n == 0) break;
        *moved += static_cast<size_t>(n);
    }
    return MPI_SUCCESS;
}

// Phase two at an aggregator: the covered ranges of `pieces`, block by block.
// A write copies the pieces into the block and writes it; a read reads the
// block (zeros past the end of the file) and copies it out to the pieces.
int access_domain(MPI_File fh, bool write, std::vector<Piece> &pieces, ScratchBuffer &block_buffer) {
    std::stable_sort(pieces.begin(), pieces.end(), [](const Piece &x, const Piece &y) { return x.off < y.off; });
    // reach[i]: the highest end among pieces 0..i, so a block can skip every
    // piece before the first whose reach passes the block's start.
    std::vector<MPI_Offset> reach(pieces.size());
    for (size_t i = 0; i < pieces.size(); ++i)
        reach[i] = std::max(pieces[i].end(), i > 0 ? reach[i - 1] : pieces[i].end());
    const auto block = static_cast<MPI_Offset>(std::max<size_t>(fh->hints.cb_buffer_size, 1));
    int code = MPI_SUCCESS;
    size_t i = 0;
    while (i < pieces.size()) {
        // A covered range: pieces that touch or overlap one another.
        const MPI_Offset range_start = pieces[i].off;
        MPI_Offset range_end = pieces[i].end();
        size_t j = i + 1;
        while (j < pieces.size() && pieces[j].off <= range_end) range_end = std::max(range_end, pieces[j++].end());
        size_t first = i;
        for (MPI_Offset bs = range_start; bs < range_end; bs += block) {
            const MPI_Offset be = std::min(bs + block, range_end);
            const auto size = static_cast<size_t>(be - bs);
            unsigned char *buffer = block_buffer.get(size);
            if (!write) {
                size_t got = 0;
                if (int err = full_io(fh->fd, false, buffer, size, bs, &got); err && !code) code = err;
                std::fill(buffer + got, buffer + size, 0);
            }
            while (first < j && reach[first] <= bs) ++first;
            for (size_t k = first; k < j && pieces[k].off < be; ++k) {
                const MPI_Offset lo = std::max(bs, pieces[k].off), hi = std::min(be, pieces[k].end());
                if (lo >= hi) continue;
                unsigned char *in_block = buffer + (lo - bs);
                unsigned char *in_piece = pieces[k].data + (lo - pieces[k].off);
                if (write)
                    std::memcpy(in_block, in_piece, static_cast<size_t>(hi - lo));
                else
                    std::memcpy(in_piece, in_block, static_cast<size_t>(hi - lo));
            }
            if (write) {
                size_t put = 0;
                if (int err = full_io(fh->fd, true, buffer, size, bs, &put); err && !code) code = err;
            }
        }
        i = j;
    }
    return code;
}

// A member's accessed range [lo, hi) in the file (lo > hi: nothing) and how
// many contiguous segments it is made of.
struct Extent {
    int64_t lo, hi, segments;
};

// Segments a member may have and still access its range on its own: more,
// smaller pieces are cheaper to gather into the aggregators' large blocks.
constexpr int64_t few_segments = 64;

// Whether the aggregators gain anything over each member accessing its own
// data (ROMIO's automatic collective buffering): only when the members'
// ranges interleave, or a member's access is cut into many pieces.
bool worth_aggregating(std::vector<Extent> extents) {
    std::erase_if(extents, [](const Extent &e) { return e.hi <= e.lo; });
    std::sort(extents.begin(), extents.end(), [](const Extent &x, const Extent &y) { return x.lo < y.lo; });
    for (size_t i = 0; i < extents.size(); ++i) {
        if (extents[i].segments > few_segments) return true;
        if (i > 0 && extents[i].lo < extents[i - 1].hi) return true;
    }
    return false;
}

std::vector<int> displacements(const std::vector<int> &counts) {
    std::vector<int> d(counts.size(), 0);
    for (size_t r = 1; r < counts.size(); ++r) d[r] = d[r - 1] + counts[r - 1];
    return d;
}

}  // namespace

int two_phase(MPI_File fh, Access &a, size_t *done) {
    *done = 0;
    MPI_Comm comm = fh->comm;
    const int n = fh->size;
    const std::vector<int> aggs = aggregators(fh);
    const auto naggr = static_cast<MPI_Offset>(aggs.size());

    // Every member's accessed range and segment count, so that all of them
    // take the same decisions below.
    std::vector<Extent> extents(static_cast<size_t>(n));
    Extent own{INT64_MAX, 0, static_cast<int64_t>(a.segments.size())};
    for (const Segment &s : a.segments) {
        own.lo = std::min(own.lo, s.offset);
        own.hi = std::max(own.hi, s.offset + static_cast<MPI_Offset>(s.len));
    }
    if (int err = PMPI_Allgather(&own, 3, MPI_INT64_T, extents.data(), 3, MPI_INT64_T, comm)) return err;
    MPI_Offset glo = INT64_MAX, ghi = 0;
    for (const Extent &e : extents) {
        glo = std::min(glo, e.lo);
        ghi = std::max(ghi, e.hi);
    }
    if (ghi <= glo) return MPI_SUCCESS;  // nobody accesses anything
    const MPI_Offset domain = std::max<MPI_Offset>(1, (ghi - glo + naggr - 1) / naggr);
    // alltoallv counts and displacements are ints: an aggregator could not
    // receive a domain this large in one exchange, so every member (they all
    // computed the same domain) accesses its own data instead. The same when
    // the aggregators would gain nothing (automatic: worth_aggregating).
    const CollectiveBuffering mode = a.dir == Dir::write ? fh->hints.cb_write : fh->hints.cb_read;
    if (domain > max_domain || (mode == CollectiveBuffering::automatic && !worth_aggregating(extents)))
        return transfer(fh, a, done);

    // Phase one: my pieces per aggregator, cut at the domain boundaries.
    std::vector<std::vector<Mine>> mine(aggs.size());
    size_t pos = 0;
    for (const Segment &s : a.segments) {
        MPI_Offset off = s.offset;
        size_t left = s.len;
        while (left > 0) {
            const auto k = static_cast<size_t>(std::min((off - glo) / domain, naggr - 1));
            const MPI_Offset limit = k + 1 == aggs.size() ? INT64_MAX : glo + static_cast<MPI_Offset>(k + 1) * domain;
            const size_t take = static_cast<size_t>(std::min<MPI_Offset>(static_cast<MPI_Offset>(left), limit - off));
            mine[k].push_back({off, take, pos});
            off += static_cast<MPI_Offset>(take);
            pos += take;
            left -= take;
        }
    }
    int local = MPI_SUCCESS;
    std::vector<int> desc_out(n, 0), bytes_out(n, 0);
    for (size_t k = 0; k < aggs.size(); ++k) {
        size_t bytes = 0;
        for (const Mine &m : mine[k]) bytes += m.len;
        // alltoallv counts are ints: a larger share is refused, not truncated.
        if (bytes > INT_MAX || mine[k].size() > INT_MAX / 2) {
            local = MPI_ERR_COUNT;
            mine[k].clear();
            bytes = 0;
        }
        desc_out[aggs[k]] = static_cast<int>(2 * mine[k].size());
        bytes_out[aggs[k]] = static_cast<int>(bytes);
    }
    std::vector<int64_t> desc_send;
    for (int r = 0; r < n; ++r)
        for (size_t k = 0; k < aggs.size(); ++k)
            if (aggs[k] == r)
                for (const Mine &m : mine[k]) {
                    desc_send.push_back(m.off);
                    desc_send.push_back(static_cast<int64_t>(m.len));
                }
    std::vector<int> desc_in(n);
    if (int err = PMPI_Alltoall(desc_out.data(), 1, MPI_INT, desc_in.data(), 1, MPI_INT, comm)) return err;
    const std::vector<int> desc_out_at = displacements(desc_out), desc_in_at = displacements(desc_in);
    std::vector<int64_t> desc_recv(static_cast<size_t>(std::accumulate(desc_in.begin(), desc_in.end(), 0)) + 1);
    if (int err = PMPI_Alltoallv(desc_send.data(), desc_out.data(), desc_out_at.data(), MPI_INT64_T, desc_recv.data(),
                                 desc_in.data(), desc_in_at.data(), MPI_INT64_T, comm))
        return err;

    // What each member sends me (as an aggregator), from its descriptors.
    std::vector<int> bytes_in(n, 0);
    for (int r = 0; r < n; ++r)
        for (int d = 0; d < desc_in[r]; d += 2) bytes_in[r] += static_cast<int>(desc_recv[desc_in_at[r] + d + 1]);
    const std::vector<int> bytes_out_at = displacements(bytes_out), bytes_in_at = displacements(bytes_in);
    // Buffers kept by the file between calls (scratch.hpp); given back on every return.
    std::unique_ptr<ScratchSet> scratch = fh->scratch.take();
    struct GiveBack {
        MPI_File fh;
        std::unique_ptr<ScratchSet> &set;
        ~GiveBack() { fh->scratch.give(std::move(set)); }
    } give_back{fh, scratch};
    unsigned char *at_aggregator =
        scratch->at_aggregator.get(static_cast<size_t>(std::accumulate(bytes_in.begin(), bytes_in.end(), 0L)));
    std::vector<Piece> pieces;
    for (int r = 0; r < n; ++r) {
        size_t at = static_cast<size_t>(bytes_in_at[r]);
        for (int d = 0; d < desc_in[r]; d += 2) {
            const auto len = static_cast<size_t>(desc_recv[desc_in_at[r] + d + 1]);
            pieces.push_back({desc_recv[desc_in_at[r] + d], len, at_aggregator + at});
            at += len;
        }
    }
    unsigned char *exchange =
        scratch->to_aggregators.get(static_cast<size_t>(std::accumulate(bytes_out.begin(), bytes_out.end(), 0L)));

    if (a.dir == Dir::write) {
        size_t at = 0;
        for (int r = 0; r < n; ++r)
            for (size_t k = 0; k < aggs.size(); ++k)
                if (aggs[k] == r)
                    for (const Mine &m : mine[k]) {
                        std::memcpy(exchange + at, a.stream + m.stream_pos, m.len);
                        at += m.len;
                    }
        if (int err = PMPI_Alltoallv(exchange, bytes_out.data(), bytes_out_at.data(), MPI_BYTE, at_aggregator,
                                     bytes_in.data(), bytes_in_at.data(), MPI_BYTE, comm))
            return err;
        const int code = access_domain(fh, true, pieces, scratch->block);
        *done = a.bytes;
        return local != MPI_SUCCESS ? local : code;
    }

    // A read: the aggregators fill the replies, which travel back reversed.
    const int code = access_domain(fh, false, pieces, scratch->block);
    if (int err = PMPI_Alltoallv(at_aggregator, bytes_in.data(), bytes_in_at.data(), MPI_BYTE, exchange,
                                 bytes_out.data(), bytes_out_at.data(), MPI_BYTE, comm))
        return err;
    // The aggregators read zeros past the end of the file; what lies there
    // is not data, and the user's buffer beyond what was read stays as it was.
    *done = readable_bytes(fh, a);
    size_t at = 0;
    for (int r = 0; r < n; ++r)
        for (size_t k = 0; k < aggs.size(); ++k)
            if (aggs[k] == r)
                for (const Mine &m : mine[k]) {
                    if (m.stream_pos < *done)
                        std::memcpy(a.stream + m.stream_pos, exchange + at, std::min(m.len, *done - m.stream_pos));
                    at += m.len;
                }
    return local != MPI_SUCCESS ? local : code;
}

}  // namespace ftmpi::io
