// MPI_Type_contiguous: `count` copies of old, back to back.
#include "type.hpp"

namespace ftmpi::dt {

Type *make_contiguous(int count, Type *old) {
    Type *t = make_regular(Combiner::contiguous, old, static_cast<size_t>(count), 1, old->extent());
    t->ints = {count};
    return t;
}

}  // namespace ftmpi::dt
