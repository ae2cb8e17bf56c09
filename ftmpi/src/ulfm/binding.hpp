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

}  // namespace ftmpi::ulfm
