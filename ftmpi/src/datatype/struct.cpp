// MPI_Type_create_struct: blocks of different types. The extent is rounded
// up to the largest alignment of the members' basic types, as C pads a
// struct (MPI-3.1 §4.1.6, "epsilon"), so an array of the C struct and
// `count` elements of this type line up — unless a member has explicit
// bounds (resized), which then say the extent (§4.1.7; Open MPI agrees).
#include "bounds.hpp"
#include "type.hpp"

namespace ftmpi::dt {

namespace {

template <class Int>
Type *structure(std::span<const Int> blocklens, std::span<const Aint> disps, std::span<Type *const> types) {
    auto *t = new Type;
    t->combiner = Combiner::struct_;
    std::vector<Layout> layouts;
    std::vector<Signature> sigs;
    Bounds bounds;
    bool first = true, kind_from_data = false;
    for (size_t i = 0; i < blocklens.size(); ++i) {
        Type *old = types[i];
        const size_t n = static_cast<size_t>(blocklens[i]);
        // The kind of a struct is that of its members with data when they
        // all agree (ops accept a struct of ints, also with MPI_LB/MPI_UB
        // markers in it); any disagreement makes it mixed.
        const bool has_data = n > 0 && old->size > 0;
        if (first || (has_data && !kind_from_data)) {
            t->kind = old->kind;
            first = false;
            kind_from_data = has_data;
        } else if (has_data && t->kind != old->kind) {
            t->kind = Kind::none;
        }
        t->align = std::max(t->align, old->align);
        if (n == 0) continue;
        const Aint ext = old->extent();
        layouts.push_back(shifted(replicate(old->layout, n, ext), disps[i]));
        sigs.push_back(replicate(old->sig, n));
        t->size += n * old->size;
        bounds.add(*old, disps[i]);
        bounds.add(*old, disps[i] + static_cast<Aint>(n - 1) * ext);
    }
    t->layout = concat(layouts);
    index(t->layout);
    t->sig = concat(sigs);
    bounds.apply(*t);
    const Aint align = static_cast<Aint>(t->align);
    const Aint over = (t->ub - t->lb) % align;
    if (over != 0 && !t->explicit_lb && !t->explicit_ub) t->ub += align - over;

    std::vector<Count> integers{static_cast<Count>(blocklens.size())};
    integers.insert(integers.end(), blocklens.begin(), blocklens.end());
    record_arguments(t, std::move(integers), {disps.begin(), disps.end()});
    t->types.assign(types.begin(), types.end());
    for (Type *old : t->types) retain(old);
    return t;
}

}  // namespace

Type *make_struct(std::span<const int> blocklens, std::span<const Aint> disps, std::span<Type *const> types) {
    return structure(blocklens, disps, types);
}
Type *make_struct(std::span<const Count> blocklens, std::span<const Aint> disps, std::span<Type *const> types) {
    return structure(blocklens, disps, types);
}

}  // namespace ftmpi::dt
