// MPI_Type_create_subarray: an n-dimensional block of a larger array. Built
// as nested hvectors of a contiguous row, moved to the block's start and
// resized to the whole array, so `count` elements step over whole arrays
// (MPI-3.1 §4.1.3). The bindings check sizes, subsizes and starts.
#include "rebrand.hpp"
#include "type.hpp"

#include <algorithm>

namespace ftmpi::dt {

Type *make_subarray(std::span<const int> sizes_in, std::span<const int> subsizes_in, std::span<const int> starts_in,
                    Order order, Type *old) {
    // Work in C order: the last dimension varies fastest.
    std::vector<int> sizes(sizes_in.begin(), sizes_in.end());
    std::vector<int> subsizes(subsizes_in.begin(), subsizes_in.end());
    std::vector<int> starts(starts_in.begin(), starts_in.end());
    if (order == Order::fortran) {
        std::reverse(sizes.begin(), sizes.end());
        std::reverse(subsizes.begin(), subsizes.end());
        std::reverse(starts.begin(), starts.end());
    }
    const size_t ndims = sizes.size();
    const Aint ext = old->extent();

    Type *t = make_contiguous(subsizes[ndims - 1], old);
    Aint stride = static_cast<Aint>(sizes[ndims - 1]) * ext;
    Aint start = static_cast<Aint>(starts[ndims - 1]) * ext;
    for (size_t d = ndims - 1; d-- > 0;) {
        Type *outer = make_hvector(subsizes[d], 1, stride, t);
        release(t);
        t = outer;
        start += static_cast<Aint>(starts[d]) * stride;
        stride *= sizes[d];
    }
    const int one = 1;
    Type *moved = make_hindexed(std::span(&one, 1), std::span(&start, 1), t);
    release(t);
    Type *whole = make_resized(moved, 0, stride);
    release(moved);
    return rebrand(whole, Combiner::subarray, old);
}

}  // namespace ftmpi::dt
