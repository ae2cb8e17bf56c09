// MPI_Type_dup: a new handle for the same type, committed if old is (MPI-3.1
// §4.1.10), and keeping old's kind so ops still accept it.
#include "type.hpp"

namespace ftmpi::dt {

Type *make_dup(Type *old) {
    Type *t = make_regular(Combiner::dup, old, 1, 1, 0);
    t->align = old->align;
    if (old->committed || old->predefined) commit(t);
    return t;
}

}  // namespace ftmpi::dt
