// The builder behind every constructor except struct: copies of one old type
// at byte displacements. Bounds follow MPI-3.1 §4.1.6 — the lower bound is
// the smallest lb of any copy, the upper bound the largest ub — and the true
// bounds the same for the data itself.
#include "bounds.hpp"
#include "type.hpp"

namespace ftmpi::dt {

Type *make_placed(Combiner combiner, Type *old, std::span<const Placement> placements) {
    auto *t = new Type;
    t->combiner = combiner;
    t->kind = old->kind;
    t->align = old->align;
    const Aint ext = old->extent();
    std::vector<Layout> layouts;
    std::vector<Signature> sigs;
    Bounds bounds;
    size_t copies = 0;
    for (const Placement &p : placements) {
        if (p.count == 0) continue;
        copies += p.count;
        layouts.push_back(shifted(replicate(old->layout, p.count, ext), p.disp));
        sigs.push_back(replicate(old->sig, p.count));
        bounds.add(*old, p.disp);
        bounds.add(*old, p.disp + static_cast<Aint>(p.count - 1) * ext);
    }
    t->layout = layouts.size() == 1 ? layouts[0] : concat(layouts);
    index(t->layout);
    t->sig = sigs.size() == 1 ? sigs[0] : concat(sigs);
    t->size = copies * old->size;
    bounds.apply(*t);
    t->types = {old};
    retain(old);
    return t;
}

Type *make_regular(Combiner combiner, Type *old, size_t count, size_t blocklen, Aint stride) {
    auto *t = new Type;
    t->combiner = combiner;
    t->kind = old->kind;
    t->align = old->align;
    const Aint ext = old->extent();
    t->layout = replicate(replicate(old->layout, blocklen, ext), count, stride);
    index(t->layout);
    t->sig = replicate(replicate(old->sig, blocklen), count);
    t->size = count * blocklen * old->size;
    Bounds bounds;
    if (count > 0 && blocklen > 0) {
        const Aint last_block = static_cast<Aint>(count - 1) * stride;
        const Aint last_in_block = static_cast<Aint>(blocklen - 1) * ext;
        bounds.add(*old, 0);
        bounds.add(*old, last_in_block);
        bounds.add(*old, last_block);
        bounds.add(*old, last_block + last_in_block);
    }
    bounds.apply(*t);
    t->types = {old};
    retain(old);
    return t;
}

}  // namespace ftmpi::dt
