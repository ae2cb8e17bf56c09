// MPI_Type_create_indexed_block and MPI_Type_create_hindexed_block: blocks
// of one length at varying displacements (elements of old, or bytes).
#include "type.hpp"

namespace ftmpi::dt {

Type *make_indexed_block(int blocklen, std::span<const int> disps, Type *old) {
    std::vector<Placement> placements(disps.size());
    for (size_t i = 0; i < disps.size(); ++i)
        placements[i] = {static_cast<Aint>(disps[i]) * old->extent(), static_cast<size_t>(blocklen)};
    Type *t = make_placed(Combiner::indexed_block, old, placements);
    t->ints = {static_cast<int>(disps.size()), blocklen};
    t->ints.insert(t->ints.end(), disps.begin(), disps.end());
    return t;
}

Type *make_hindexed_block(int blocklen, std::span<const Aint> disps, Type *old) {
    std::vector<Placement> placements(disps.size());
    for (size_t i = 0; i < disps.size(); ++i) placements[i] = {disps[i], static_cast<size_t>(blocklen)};
    Type *t = make_placed(Combiner::hindexed_block, old, placements);
    t->ints = {static_cast<int>(disps.size()), blocklen};
    t->aints.assign(disps.begin(), disps.end());
    return t;
}

}  // namespace ftmpi::dt
