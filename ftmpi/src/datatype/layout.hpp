// The compacted representation of a datatype's data (the paper's "optimized
// maximum-length representation", FGCS 18, §4.1).
//
// A Layout lists where the bytes of ONE element of a type are, in the order
// they are packed:
//
//     for rep in [0, reps):                   // outer repeat
//       for block in blocks:                  // in order
//         for i in [0, block.count):          // inner repeat
//           block.len bytes at rep*rep_stride + block.off + i*block.stride
//
// Constructors compose their children's layouts (replicate, concat) and fold
// regular patterns into the two repeat levels instead of listing every run,
// so MPI_Type_vector(10^8, 1, 2, MPI_INT) is one Block, not 10^8 runs.
// compact() (MPI_Type_commit) merges adjacent runs into maximal ones and
// folds equal, equally spaced runs into a repeat.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace ftmpi::dt {

using Aint = std::int64_t;

struct Block {
    Aint off = 0;      // byte offset of the first copy from the element's origin
    size_t len = 0;    // bytes in one contiguous run (> 0)
    size_t count = 1;  // copies of the run
    Aint stride = 0;   // bytes between copies (0 when count == 1)
    bool operator==(const Block &) const = default;
};

struct Layout {
    std::vector<Block> blocks;
    size_t reps = 1;
    Aint rep_stride = 0;
    // starts[b] = packed bytes before block b within a rep; filled by
    // index() so a stream offset finds its block by binary search.
    std::vector<size_t> starts;

    size_t rep_bytes() const;  // packed bytes of one rep
    size_t bytes() const { return reps * rep_bytes(); }
    size_t runs() const;  // contiguous runs listed (after folding)
    bool operator==(const Layout &o) const {
        return blocks == o.blocks && reps == o.reps && rep_stride == o.rep_stride;
    }
};

// `n` copies of `child`, copy k shifted by k*stride bytes.
Layout replicate(const Layout &child, size_t n, Aint stride);
// `child` with every offset moved by `shift` bytes.
Layout shifted(const Layout &child, Aint shift);
// The parts one after another (struct, indexed); reps are expanded.
Layout concat(const std::vector<Layout> &parts);
// Merge adjacent runs and fold regular ones (commit); the result is indexed.
Layout compact(const Layout &);
// Fill `starts` (done by compact()).
void index(Layout &);

// Walks `count` elements of a type whose element stride is `extent`, from
// byte `offset` of the packed stream, for at most `len` bytes, calling
// visit(pointer into the user buffer, bytes) for each piece of a run in
// pack order. Returns the bytes visited.
size_t walk(const Layout &, Aint extent, size_t count, const unsigned char *base, size_t offset, size_t len,
            const std::function<void(const unsigned char *, size_t)> &visit);

// The hot paths, without std::function: copy between the user buffer and a
// packed stream starting at `offset`.
size_t pack_bytes(const Layout &, Aint extent, size_t count, const unsigned char *base, size_t offset,
                  unsigned char *out, size_t len);
size_t unpack_bytes(const Layout &, Aint extent, size_t count, unsigned char *base, size_t offset,
                    const unsigned char *in, size_t len);

}  // namespace ftmpi::dt
