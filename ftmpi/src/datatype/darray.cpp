// MPI_Type_create_darray: this process's part of an HPF-style distributed
// array. Per dimension, fastest first, the process's blocks (block, cyclic(k)
// or none) of the previous dimensions' type, resized to the whole dimension
// (MPI-3.1 §4.1.4). The process grid is row-major whatever the array order.
#include "rebrand.hpp"
#include "type.hpp"

#include <algorithm>

namespace ftmpi::dt {

namespace {

// One dimension: the blocks of `darg` elements that belong to grid coordinate
// `coord`, dealt round-robin over `psize` processes; null if the blocks
// cannot cover the dimension.
Type *distribute(Distribute how, int darg, int gsize, int coord, int psize, Type *old) {
    if (how == Distribute::none) {
        darg = gsize;
        coord = 0;
        psize = 1;
    } else if (how == Distribute::block) {
        if (darg == darg_default) darg = (gsize + psize - 1) / psize;
        if (static_cast<long long>(darg) * psize < gsize) return nullptr;
    } else if (darg == darg_default) {
        darg = 1;
    }
    if (darg <= 0) return nullptr;
    const Aint ext = old->extent();
    std::vector<Placement> blocks;
    for (long long start = static_cast<long long>(coord) * darg; start < gsize;
         start += static_cast<long long>(darg) * psize)
        blocks.push_back(
            {static_cast<Aint>(start) * ext, static_cast<size_t>(std::min<long long>(darg, gsize - start))});
    Type *mine = make_placed(Combiner::hindexed, old, blocks);
    Type *whole = make_resized(mine, 0, static_cast<Aint>(gsize) * ext);
    release(mine);
    return whole;
}

}  // namespace

Type *make_darray(int size, int rank, std::span<const int> gsizes, std::span<const Distribute> distribs,
                  std::span<const int> dargs, std::span<const int> psizes, Order order, Type *old) {
    const size_t ndims = gsizes.size();
    (void)size;
    // Grid coordinates of `rank`, row-major.
    std::vector<int> coords(ndims);
    for (size_t d = ndims, rest = static_cast<size_t>(rank); d-- > 0;) {
        coords[d] = static_cast<int>(rest % static_cast<size_t>(psizes[d]));
        rest /= static_cast<size_t>(psizes[d]);
    }
    Type *t = old;
    retain(t);
    for (size_t i = 0; i < ndims; ++i) {
        const size_t d = order == Order::c ? ndims - 1 - i : i;  // fastest dimension first
        Type *next = distribute(distribs[d], dargs[d], gsizes[d], coords[d], psizes[d], t);
        release(t);
        if (!next) return nullptr;
        t = next;
    }
    if (t == old) {  // no dimensions: nothing to distribute
        release(t);
        t = make_contiguous(1, old);
    }
    return rebrand(t, Combiner::darray, old);
}

}  // namespace ftmpi::dt
