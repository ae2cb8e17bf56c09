// MPI_Type_indexed and MPI_Type_create_hindexed: blocks of varying length at
// varying displacements (elements of old, or bytes).
#include "type.hpp"

namespace ftmpi::dt {

Type *make_indexed(std::span<const int> blocklens, std::span<const int> disps, Type *old) {
    std::vector<Placement> placements(blocklens.size());
    for (size_t i = 0; i < blocklens.size(); ++i)
        placements[i] = {static_cast<Aint>(disps[i]) * old->extent(), static_cast<size_t>(blocklens[i])};
    Type *t = make_placed(Combiner::indexed, old, placements);
    t->ints.push_back(static_cast<int>(blocklens.size()));
    t->ints.insert(t->ints.end(), blocklens.begin(), blocklens.end());
    t->ints.insert(t->ints.end(), disps.begin(), disps.end());
    return t;
}

Type *make_hindexed(std::span<const int> blocklens, std::span<const Aint> disps, Type *old) {
    std::vector<Placement> placements(blocklens.size());
    for (size_t i = 0; i < blocklens.size(); ++i) placements[i] = {disps[i], static_cast<size_t>(blocklens[i])};
    Type *t = make_placed(Combiner::hindexed, old, placements);
    t->ints.push_back(static_cast<int>(blocklens.size()));
    t->ints.insert(t->ints.end(), blocklens.begin(), blocklens.end());
    t->aints.assign(disps.begin(), disps.end());
    return t;
}

}  // namespace ftmpi::dt
