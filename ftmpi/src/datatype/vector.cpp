// MPI_Type_vector and MPI_Type_create_hvector: `count` blocks of `blocklen`
// copies of old, block starts `stride` apart (elements of old, or bytes).
// A regular pattern: it stays one repeated block in the layout however large
// `count` is.
#include "type.hpp"

namespace ftmpi::dt {

Type *make_vector(int count, int blocklen, int stride, Type *old) {
    Type *t = make_regular(Combiner::vector, old, static_cast<size_t>(count), static_cast<size_t>(blocklen),
                           static_cast<Aint>(stride) * old->extent());
    t->ints = {count, blocklen, stride};
    return t;
}

Type *make_hvector(int count, int blocklen, Aint stride, Type *old) {
    Type *t = make_regular(Combiner::hvector, old, static_cast<size_t>(count), static_cast<size_t>(blocklen), stride);
    t->ints = {count, blocklen};
    t->aints = {stride};
    return t;
}

}  // namespace ftmpi::dt
