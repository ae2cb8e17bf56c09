// Argument checks shared by the MPI_Type_* bindings. Each returns
// MPI_SUCCESS or the error class the binding raises. Counts are ints or, for
// the large-count (`_c`) bindings, MPI_Counts.
#pragma once

#include "type.hpp"

#include <mpi.h>

namespace ftmpi::dt {

// A type usable to build another one (need not be committed).
inline int check_old(MPI_Datatype t) {
    return t ? MPI_SUCCESS : MPI_ERR_TYPE;
}

// Counts and lengths are never negative.
inline int check_count(MPI_Count n) {
    return n >= 0 ? MPI_SUCCESS : MPI_ERR_COUNT;
}

template <class Int>
int check_blocklens(Int count, const Int *blocklens) {
    if (count > 0 && !blocklens) return MPI_ERR_ARG;
    for (Int i = 0; i < count; ++i)
        if (blocklens[i] < 0) return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

inline int check_out(const void *p) {
    return p ? MPI_SUCCESS : MPI_ERR_ARG;
}

// An array argument may be NULL only when it has no elements.
inline int check_array(MPI_Count count, const void *array) {
    return count == 0 || array ? MPI_SUCCESS : MPI_ERR_ARG;
}

// Vector and hvector: count blocks of blocklength elements, any stride.
inline int check_vector(MPI_Count count, MPI_Count blocklength, MPI_Datatype oldtype) {
    if (const int rc = check_count(count)) return rc;
    if (blocklength < 0) return MPI_ERR_ARG;
    return check_old(oldtype);
}

// Indexed and hindexed: blocks of their own lengths at displacements in
// elements (int) or bytes (MPI_Aint).
template <class Int, class Displ>
int check_indexed(Int count, const Int blocklens[], const Displ displs[], MPI_Datatype oldtype) {
    if (const int rc = check_count(count)) return rc;
    if (const int rc = check_blocklens(count, blocklens)) return rc;
    if (const int rc = check_array(count, displs)) return rc;
    return check_old(oldtype);
}

// Indexed_block and hindexed_block: blocks of one length at displacements in
// elements (int) or bytes (MPI_Aint).
template <class Displ>
int check_indexed_block(MPI_Count count, MPI_Count blocklength, const Displ displs[], MPI_Datatype oldtype) {
    if (const int rc = check_count(count)) return rc;
    if (blocklength < 0) return MPI_ERR_ARG;
    if (const int rc = check_array(count, displs)) return rc;
    return check_old(oldtype);
}

}  // namespace ftmpi::dt
