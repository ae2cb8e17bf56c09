// MPI_Type_contiguous: `count` copies of old, back to back.
#include "type.hpp"

namespace ftmpi::dt {

Type *make_contiguous(Count count, Type *old) {
    Type *t = make_regular(Combiner::contiguous, old, static_cast<size_t>(count), 1, old->extent());
    record_arguments(t, {count});
    return t;
}

}  // namespace ftmpi::dt
