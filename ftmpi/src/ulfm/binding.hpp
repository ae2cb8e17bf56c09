// What every MPIX_ binding does first: check the communicator,
// run the body without letting an exception out (mpi-ext.h's prototypes are
// plain C, so the definitions cannot be noexcept; this catch stands in for
// it), and hand an error to the communicator's handler in one place.
#pragma once

#include "../comm/objects.hpp"
#include "../internal/errors.hpp"
#include "mpi-ext.h"
#include "pmpix.hpp"

namespace ftmpi::ulfm {

using comm::guarded;  // internal/errors.hpp

// MPI_ERR_COMM for MPI_COMM_NULL or a handle that is not a live communicator.
inline bool usable(MPI_Comm comm) {
    return comm != MPI_COMM_NULL && comm::valid(comm);
}

// The argument check of the calls that take a communicator (intra or inter)
// and write one result (agree, shrink): MPI_ERR_COMM, or MPI_ERR_ARG for a
// null result pointer, through the right error handler.
inline int check_comm_call(MPI_Comm comm, const void *out, const char *function) {
    if (!usable(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, function);
    if (out == nullptr) return comm::raise(comm, MPI_ERR_ARG, function);
    return MPI_SUCCESS;
}

}  // namespace ftmpi::ulfm
