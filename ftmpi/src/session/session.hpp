// MPI-4 sessions inside libftmpi (README.md): what a session is, the
// registry that tells a live one from a freed or made-up handle, and the
// one place its errors meet its error handler.
#pragma once

#include "internal/bsend_buffer.hpp"
#include "mpi.h"

#include <memory>

struct ftmpi_session_s {
    MPI_Errhandler errhandler = MPI_ERRHANDLER_NULL;  // a reference is held
    int thread_level = MPI_THREAD_SINGLE;             // provided
    // MPI_Session_attach_buffer's; shared with the communicators made from
    // the session's process sets (their fallback for buffered sends).
    std::shared_ptr<ftmpi::p2p::BsendBuffer> bsend_buffer = std::make_shared<ftmpi::p2p::BsendBuffer>();
};

namespace ftmpi::session {

bool valid(MPI_Session session);
void register_session(MPI_Session session);
void unregister_session(MPI_Session session);

// Calls the session's error handler with `code` (the fatal one ends the
// job, MPI_ERRORS_RETURN returns it, a user handler is called and then it
// is returned); a session that is not valid reports through `fallback`, or
// MPI_COMM_WORLD's handler when that is null too. MPI_SUCCESS returns at once.
int raise(MPI_Session session, int code, const char *function, MPI_Errhandler fallback = MPI_ERRHANDLER_NULL);

}  // namespace ftmpi::session
