// MPI_Type_create_resized: the same data with a new lower bound and extent;
// the true bounds do not change.
#include "type.hpp"

namespace ftmpi::dt {

Type *make_resized(Type *old, Aint lb, Aint extent) {
    Type *t = make_regular(Combiner::resized, old, 1, 1, 0);
    t->lb = lb;
    t->ub = lb + extent;
    t->explicit_lb = t->explicit_ub = true;
    t->aints = {lb, extent};
    return t;
}

}  // namespace ftmpi::dt
