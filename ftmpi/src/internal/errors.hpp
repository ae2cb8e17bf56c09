// The one place where an internal error code turns
// into the communicator's error handler: bindings return
// `ftmpi::comm::raise(comm, code, "MPI_Send")` and internals never call
// handlers themselves (they return codes).
#pragma once

#include "mpi.h"

#include <new>

namespace ftmpi::comm {
// Call the communicator's error handler for `code` raised in `function`
// (MPI_COMM_WORLD's when comm is null/invalid); returns code so a binding
// can `return raise(comm, code, "MPI_Send");`. MPI_SUCCESS is returned
// at once without calling anything.
int raise(MPI_Comm, int code, const char *function);

// The error class of a code (predefined or added with MPI_Add_error_code);
// MPI_ERR_UNKNOWN for a code nobody defined.
int error_class_of(int code);

// How a binding ends: runs `body` (which returns an MPI code) without
// letting an exception cross the C boundary, and hands a failing code to
// comm's error handler exactly once.
template <typename Body>
int guarded(MPI_Comm comm, const char *function, Body &&body) noexcept {
    int code;
    try {
        code = body();
    } catch (const std::bad_alloc &) {
        code = MPI_ERR_NO_MEM;
    } catch (...) {
        code = MPI_ERR_INTERN;
    }
    return raise(comm, code, function);
}
}  // namespace ftmpi::comm
