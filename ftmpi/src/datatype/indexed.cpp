// MPI_Type_indexed and MPI_Type_create_hindexed: blocks of varying length at
// varying displacements (elements of old, or bytes). The int and the
// large-count (`_c`) forms share one body.
#include "type.hpp"

namespace ftmpi::dt {

namespace {

template <class Int>
Type *indexed(std::span<const Int> blocklens, std::span<const Int> disps, Type *old) {
    std::vector<Placement> placements(blocklens.size());
    for (size_t i = 0; i < blocklens.size(); ++i)
        placements[i] = {static_cast<Aint>(disps[i]) * old->extent(), static_cast<size_t>(blocklens[i])};
    Type *t = make_placed(Combiner::indexed, old, placements);
    std::vector<Count> integers{static_cast<Count>(blocklens.size())};
    integers.insert(integers.end(), blocklens.begin(), blocklens.end());
    integers.insert(integers.end(), disps.begin(), disps.end());
    record_arguments(t, std::move(integers));
    return t;
}

template <class Int>
Type *hindexed(std::span<const Int> blocklens, std::span<const Aint> disps, Type *old) {
    std::vector<Placement> placements(blocklens.size());
    for (size_t i = 0; i < blocklens.size(); ++i) placements[i] = {disps[i], static_cast<size_t>(blocklens[i])};
    Type *t = make_placed(Combiner::hindexed, old, placements);
    std::vector<Count> integers{static_cast<Count>(blocklens.size())};
    integers.insert(integers.end(), blocklens.begin(), blocklens.end());
    record_arguments(t, std::move(integers), {disps.begin(), disps.end()});
    return t;
}

}  // namespace

Type *make_indexed(std::span<const int> blocklens, std::span<const int> disps, Type *old) {
    return indexed(blocklens, disps, old);
}
Type *make_indexed(std::span<const Count> blocklens, std::span<const Count> disps, Type *old) {
    return indexed(blocklens, disps, old);
}
Type *make_hindexed(std::span<const int> blocklens, std::span<const Aint> disps, Type *old) {
    return hindexed(blocklens, disps, old);
}
Type *make_hindexed(std::span<const Count> blocklens, std::span<const Aint> disps, Type *old) {
    return hindexed(blocklens, disps, old);
}

}  // namespace ftmpi::dt
