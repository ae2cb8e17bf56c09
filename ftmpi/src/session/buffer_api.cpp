// A session's buffer for buffered sends (MPI-4.1): MPI_Session_attach/
// detach/flush/iflush_buffer. Communicators made from the session's process
// sets share it (internal/bsend_buffer.hpp) and use it when they have no
// buffer of their own.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "p2p/engine.hpp"
#include "session/session.hpp"

using namespace ftmpi;

extern "C" {

int MPI_Session_attach_buffer(MPI_Session session, void *buffer, int size) noexcept {
    constexpr const char *fn = "MPI_Session_attach_buffer";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    if (p2p::bad_attach(buffer, size)) return session::raise(session, MPI_ERR_ARG, fn);
    const int e = comm::code_of(
        [&] { return p2p::Engine::get().attach_buffer(session->bsend_buffer, buffer, static_cast<size_t>(size)); });
    return session::raise(session, e, fn);
}
FTMPI_PMPI(Session_attach_buffer)

int MPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size) noexcept {
    constexpr const char *fn = "MPI_Session_detach_buffer";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    if (!buffer_addr || !size) return session::raise(session, MPI_ERR_ARG, fn);
    size_t bytes = 0;
    const int e = comm::code_of([&] {
        return p2p::Engine::get().detach_buffer(session->bsend_buffer, static_cast<void **>(buffer_addr), &bytes);
    });
    if (e == MPI_SUCCESS) *size = p2p::detached_size(bytes);
    return session::raise(session, e, fn);
}
FTMPI_PMPI(Session_detach_buffer)

int MPI_Session_flush_buffer(MPI_Session session) noexcept {
    constexpr const char *fn = "MPI_Session_flush_buffer";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    const int e = comm::code_of([&] {
        p2p::Engine::get().flush_buffer(session->bsend_buffer);
        return MPI_SUCCESS;
    });
    return session::raise(session, e, fn);
}
FTMPI_PMPI(Session_flush_buffer)

int MPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request) noexcept {
    constexpr const char *fn = "MPI_Session_iflush_buffer";
    if (!session::valid(session)) return session::raise(session, MPI_ERR_SESSION, fn);
    if (!request) return session::raise(session, MPI_ERR_ARG, fn);
    const int e = comm::code_of([&] {
        *request = p2p::Engine::get().iflush_buffer(session->bsend_buffer);
        return MPI_SUCCESS;
    });
    return session::raise(session, e, fn);
}
FTMPI_PMPI(Session_iflush_buffer)

}  // extern "C"
