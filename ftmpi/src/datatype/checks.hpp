// Argument checks shared by the MPI_Type_* bindings. Each returns
// MPI_SUCCESS or the error class the binding raises.
#pragma once

#include "type.hpp"

#include <mpi.h>

namespace ftmpi::dt {

// A type usable to build another one (need not be committed).
inline int check_old(MPI_Datatype t) {
    return t ? MPI_SUCCESS : MPI_ERR_TYPE;
}

// Counts and lengths are never negative.
inline int check_count(int n) {
    return n >= 0 ? MPI_SUCCESS : MPI_ERR_COUNT;
}

inline int check_blocklens(int count, const int *blocklens) {
    if (count > 0 && !blocklens) return MPI_ERR_ARG;
    for (int i = 0; i < count; ++i)
        if (blocklens[i] < 0) return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

inline int check_out(const void *p) {
    return p ? MPI_SUCCESS : MPI_ERR_ARG;
}

}  // namespace ftmpi::dt
