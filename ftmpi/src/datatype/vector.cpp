// MPI_Type_vector and MPI_Type_create_hvector: `count` blocks of `blocklen`
// copies of old, block starts `stride` apart (elements of old, or bytes).
// A regular pattern: it stays one repeated block in the layout however large
// `count` is.
#include "type.hpp"

namespace ftmpi::dt {

Type *make_vector(Count count, Count blocklen, Count stride, Type *old) {
    Type *t = make_regular(Combiner::vector, old, static_cast<size_t>(count), static_cast<size_t>(blocklen),
                           stride * old->extent());
    record_arguments(t, {count, blocklen, stride});
    return t;
}

Type *make_hvector(Count count, Count blocklen, Aint stride, Type *old) {
    Type *t = make_regular(Combiner::hvector, old, static_cast<size_t>(count), static_cast<size_t>(blocklen), stride);
    record_arguments(t, {count, blocklen}, {stride});
    return t;
}

}  // namespace ftmpi::dt
