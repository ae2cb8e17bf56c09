// MPI_Type_create_indexed_block and MPI_Type_create_hindexed_block: blocks
// of one length at varying displacements (elements of old, or bytes).
#include "type.hpp"

namespace ftmpi::dt {

namespace {

template <class Int>
Type *indexed_block(Count blocklen, std::span<const Int> disps, Type *old) {
    std::vector<Placement> placements(disps.size());
    for (size_t i = 0; i < disps.size(); ++i)
        placements[i] = {static_cast<Aint>(disps[i]) * old->extent(), static_cast<size_t>(blocklen)};
    Type *t = make_placed(Combiner::indexed_block, old, placements);
    std::vector<Count> integers{static_cast<Count>(disps.size()), blocklen};
    integers.insert(integers.end(), disps.begin(), disps.end());
    record_arguments(t, std::move(integers));
    return t;
}

}  // namespace

Type *make_indexed_block(int blocklen, std::span<const int> disps, Type *old) {
    return indexed_block(blocklen, disps, old);
}
Type *make_indexed_block(Count blocklen, std::span<const Count> disps, Type *old) {
    return indexed_block(blocklen, disps, old);
}

Type *make_hindexed_block(Count blocklen, std::span<const Aint> disps, Type *old) {
    std::vector<Placement> placements(disps.size());
    for (size_t i = 0; i < disps.size(); ++i) placements[i] = {disps[i], static_cast<size_t>(blocklen)};
    Type *t = make_placed(Combiner::hindexed_block, old, placements);
    record_arguments(t, {static_cast<Count>(disps.size()), blocklen}, {disps.begin(), disps.end()});
    return t;
}

}  // namespace ftmpi::dt
