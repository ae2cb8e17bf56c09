// Buffers for buffered sends (internal/bsend_buffer.hpp): the process's
// (MPI_Buffer_attach/detach/flush/iflush) and, from MPI-4.1, a
// communicator's (MPI_Comm_*_buffer); the session calls are in
// src/session/buffer_api.cpp. The attached buffer bounds how much buffered
// data may be outstanding (each message costs its packed size +
// MPI_BSEND_OVERHEAD); the copies themselves live in the engine's internal
// send requests. MPI_BUFFER_AUTOMATIC removes the bound.
#include "internal/comm.hpp"
#include "p2p/binding.hpp"
#include "p2p/engine.hpp"

#include <mutex>

using namespace ftmpi;

namespace ftmpi::p2p {

std::shared_ptr<BsendBuffer> Engine::buffer_for(MPI_Comm comm) {
    if (comm->bsend_buffer && comm->bsend_buffer->attached) return comm->bsend_buffer;
    if (comm->session_bsend_buffer && comm->session_bsend_buffer->attached) return comm->session_bsend_buffer;
    return process_bsend_;
}

int Engine::attach_buffer(std::shared_ptr<BsendBuffer> &slot, void *buffer, size_t size) {
    Lock lk(mu_);
    if (!slot) slot = std::make_shared<BsendBuffer>();
    if (slot->attached) return MPI_ERR_BUFFER;  // one buffer at a time
    slot->base = buffer;
    slot->capacity = slot->automatic() ? 0 : size;
    slot->attached = true;
    return MPI_SUCCESS;
}

int Engine::detach_buffer(std::shared_ptr<BsendBuffer> &slot, void **buffer, size_t *size) {
    Lock lk(mu_);
    *buffer = nullptr;
    *size = 0;
    if (!slot || !slot->attached) return MPI_SUCCESS;
    std::shared_ptr<BsendBuffer> held = slot;
    wait_locked(lk, [&] { return held->used == 0; });  // every buffered message has left
    *buffer = held->base;
    *size = held->capacity;
    held->base = nullptr;
    held->capacity = 0;
    held->attached = false;
    return MPI_SUCCESS;
}

void Engine::flush_buffer(std::shared_ptr<BsendBuffer> &slot) {
    Lock lk(mu_);
    if (!slot) return;
    std::shared_ptr<BsendBuffer> held = slot;
    wait_locked(lk, [&] { return held->used == 0; });
}

MPI_Request Engine::iflush_buffer(std::shared_ptr<BsendBuffer> &slot) {
    std::shared_ptr<BsendBuffer> held;
    {
        Lock lk(mu_);
        held = slot;
    }
    return make_generalized([this, held](MPI_Status *) {
        if (!held) return true;
        Lock lk(mu_);  // advances run without the engine's lock
        return held->used == 0;
    });
}

}  // namespace ftmpi::p2p

using p2p::bad_attach;
using p2p::detached_size;

extern "C" {

int MPI_Buffer_attach(void *buffer, int size) noexcept {
    return p2p::guarded(MPI_COMM_WORLD, "MPI_Buffer_attach", [&] {
        if (bad_attach(buffer, size)) return MPI_ERR_ARG;
        auto &engine = p2p::Engine::get();
        return engine.attach_buffer(engine.process_buffer(), buffer, static_cast<size_t>(size));
    });
}
FTMPI_PMPI(Buffer_attach)

int MPI_Buffer_detach(void *buffer_addr, int *size) noexcept {
    return p2p::guarded(MPI_COMM_WORLD, "MPI_Buffer_detach", [&] {
        if (!buffer_addr || !size) return MPI_ERR_ARG;
        auto &engine = p2p::Engine::get();
        size_t bytes = 0;
        int e = engine.detach_buffer(engine.process_buffer(), static_cast<void **>(buffer_addr), &bytes);
        *size = detached_size(bytes);
        return e;
    });
}
FTMPI_PMPI(Buffer_detach)

int MPI_Buffer_flush(void) noexcept {
    return p2p::guarded(MPI_COMM_WORLD, "MPI_Buffer_flush", [&] {
        auto &engine = p2p::Engine::get();
        engine.flush_buffer(engine.process_buffer());
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Buffer_flush)

int MPI_Buffer_iflush(MPI_Request *request) noexcept {
    return p2p::guarded(MPI_COMM_WORLD, "MPI_Buffer_iflush", [&] {
        if (!request) return MPI_ERR_ARG;
        auto &engine = p2p::Engine::get();
        *request = engine.iflush_buffer(engine.process_buffer());
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Buffer_iflush)

int MPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size) noexcept {
    constexpr const char *fn = "MPI_Comm_attach_buffer";
    if (!comm::valid(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, fn);
    return p2p::guarded(comm, fn, [&] {
        if (bad_attach(buffer, size)) return MPI_ERR_ARG;
        return p2p::Engine::get().attach_buffer(comm->bsend_buffer, buffer, static_cast<size_t>(size));
    });
}
FTMPI_PMPI(Comm_attach_buffer)

int MPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size) noexcept {
    constexpr const char *fn = "MPI_Comm_detach_buffer";
    if (!comm::valid(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, fn);
    return p2p::guarded(comm, fn, [&] {
        if (!buffer_addr || !size) return MPI_ERR_ARG;
        size_t bytes = 0;
        int e = p2p::Engine::get().detach_buffer(comm->bsend_buffer, static_cast<void **>(buffer_addr), &bytes);
        *size = detached_size(bytes);
        return e;
    });
}
FTMPI_PMPI(Comm_detach_buffer)

int MPI_Comm_flush_buffer(MPI_Comm comm) noexcept {
    constexpr const char *fn = "MPI_Comm_flush_buffer";
    if (!comm::valid(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, fn);
    return p2p::guarded(comm, fn, [&] {
        p2p::Engine::get().flush_buffer(comm->bsend_buffer);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Comm_flush_buffer)

int MPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request) noexcept {
    constexpr const char *fn = "MPI_Comm_iflush_buffer";
    if (!comm::valid(comm)) return comm::raise(MPI_COMM_NULL, MPI_ERR_COMM, fn);
    return p2p::guarded(comm, fn, [&] {
        if (!request) return MPI_ERR_ARG;
        *request = p2p::Engine::get().iflush_buffer(comm->bsend_buffer);
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Comm_iflush_buffer)

}  // extern "C"
