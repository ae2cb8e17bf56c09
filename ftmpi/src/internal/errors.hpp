// Owner: comm (mpicomm). The one place where an internal error code turns
// into the communicator's error handler: bindings return
// `ftmpi::comm::raise(comm, code, "MPI_Send")` and internals never call
// handlers themselves (they return codes).
#pragma once

#include "mpi.h"

namespace ftmpi::comm {
// Call the communicator's error handler for `code` raised in `function`
// (MPI_COMM_WORLD's when comm is null/invalid); returns code so a binding
// can `return raise(comm, code, "MPI_Send");`. MPI_SUCCESS is returned
// at once without calling anything.
int raise(MPI_Comm, int code, const char *function);

// The error class of a code (predefined or added with MPI_Add_error_code);
// MPI_ERR_UNKNOWN for a code nobody defined.
int error_class_of(int code);
}
