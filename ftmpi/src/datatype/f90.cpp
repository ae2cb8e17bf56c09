// The types MPI_Type_create_f90_real, _complex and _integer return
// (MPI-3.1 §17.2.5): predefined (the user never frees them) and with the
// data of a named Fortran type, but with their own combiner and the (p, r)
// or (r) they were asked with, for MPI_Type_get_envelope/contents.
#include "type.hpp"

namespace ftmpi::dt {

Type *make_f90(Combiner combiner, const Type &named, std::span<const int> params) {
    auto *t = new Type;
    t->predefined = true;
    t->committed = true;
    t->kind = named.kind;
    t->combiner = combiner;
    t->size = named.size;
    t->lb = named.lb;
    t->ub = named.ub;
    t->true_lb = named.true_lb;
    t->true_ub = named.true_ub;
    t->align = named.align;
    t->layout = named.layout;
    t->sig = named.sig;
    t->name = named.name;
    t->ints.assign(params.begin(), params.end());
    return t;
}

}  // namespace ftmpi::dt
