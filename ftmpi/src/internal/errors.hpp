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

// For the calls that take the new communicator's error handler as an
// argument (MPI_Comm_create_from_group, MPI_Intercomm_create_from_groups):
// an error of the call itself goes to that handler (its communicator
// argument MPI_COMM_NULL), or to raise()'s when it is not a usable one.
int raise_through(MPI_Errhandler handler, int code, const char *function);

// An error of a call that has no communicator, file or window (datatype and
// op calls): MPI_COMM_WORLD's handler, as raise() gives a null communicator.
inline int raise_unattached(int code, const char *function) {
    return raise(MPI_COMM_NULL, code, function);
}

// MPI_ERRORS_ARE_FATAL: logs what failed in `function` on `subject` ("file
// /tmp/x", "a session", ...) and ends the whole job.
[[noreturn]] void abort_fatal(int code, const char *function, const char *subject);

// The error class of a code (predefined or added with MPI_Add_error_code);
// MPI_ERR_UNKNOWN for a code nobody defined.
int error_class_of(int code);

// Runs `body` (which returns an MPI code) without letting an exception out:
// MPI_ERR_NO_MEM for std::bad_alloc, MPI_ERR_INTERN for anything else.
template <typename Body>
int code_of(Body &&body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc &) {
        return MPI_ERR_NO_MEM;
    } catch (...) {
        return MPI_ERR_INTERN;
    }
}

// How a binding ends: runs `body` through code_of() and hands a failing
// code to comm's error handler exactly once.
template <typename Body>
int guarded(MPI_Comm comm, const char *function, Body &&body) noexcept {
    return raise(comm, code_of(body), function);
}
}  // namespace ftmpi::comm
