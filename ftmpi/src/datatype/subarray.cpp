// MPI_Type_create_subarray: an n-dimensional block of a larger array. Built
// as nested hvectors of a contiguous row, moved to the block's start and
// resized to the whole array, so `count` elements step over whole arrays
// (MPI-3.1 §4.1.3). The bindings check sizes, subsizes and starts.
#include "rebrand.hpp"
#include "type.hpp"

#include <algorithm>

namespace ftmpi::dt {

namespace {

template <class Int>
Type *subarray(std::span<const Int> sizes_in, std::span<const Int> subsizes_in, std::span<const Int> starts_in,
               Order order, Type *old) {
    // Work in C order: the last dimension varies fastest.
    std::vector<Count> sizes(sizes_in.begin(), sizes_in.end());
    std::vector<Count> subsizes(subsizes_in.begin(), subsizes_in.end());
    std::vector<Count> starts(starts_in.begin(), starts_in.end());
    if (order == Order::fortran) {
        std::reverse(sizes.begin(), sizes.end());
        std::reverse(subsizes.begin(), subsizes.end());
        std::reverse(starts.begin(), starts.end());
    }
    const size_t ndims = sizes.size();
    const Aint ext = old->extent();

    Type *t = make_contiguous(subsizes[ndims - 1], old);
    Aint stride = sizes[ndims - 1] * ext;
    Aint start = starts[ndims - 1] * ext;
    for (size_t d = ndims - 1; d-- > 0;) {
        Type *outer = make_hvector(subsizes[d], 1, stride, t);
        release(t);
        t = outer;
        start += starts[d] * stride;
        stride *= sizes[d];
    }
    const int one = 1;
    Type *moved = make_hindexed(std::span(&one, 1), std::span(&start, 1), t);
    release(t);
    Type *whole = make_resized(moved, 0, stride);
    release(moved);
    return rebrand(whole, Combiner::subarray, old);
}

}  // namespace

Type *make_subarray(std::span<const int> sizes, std::span<const int> subsizes, std::span<const int> starts, Order order,
                    Type *old) {
    return subarray(sizes, subsizes, starts, order, old);
}
Type *make_subarray(std::span<const Count> sizes, std::span<const Count> subsizes, std::span<const Count> starts,
                    Order order, Type *old) {
    return subarray(sizes, subsizes, starts, order, old);
}

}  // namespace ftmpi::dt
