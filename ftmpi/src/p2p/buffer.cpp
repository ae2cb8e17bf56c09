// MPI_Buffer_attach/detach for buffered sends. The
// attached buffer bounds how much buffered data may be outstanding (each
// message costs its packed size + MPI_BSEND_OVERHEAD); the copies themselves
// live in the engine's internal send requests.
#include "p2p/binding.hpp"
#include "p2p/engine.hpp"

using namespace ftmpi;

extern "C" {

int MPI_Buffer_attach(void *buffer, int size) noexcept {
    return p2p::guarded(MPI_COMM_WORLD, "MPI_Buffer_attach", [&] {
        if (size < 0 || (size > 0 && !buffer)) return MPI_ERR_ARG;
        return p2p::Engine::get().attach_buffer(buffer, size);
    });
}
FTMPI_PMPI(Buffer_attach)

int MPI_Buffer_detach(void *buffer_addr, int *size) noexcept {
    return p2p::guarded(MPI_COMM_WORLD, "MPI_Buffer_detach", [&] {
        if (!buffer_addr || !size) return MPI_ERR_ARG;
        return p2p::Engine::get().detach_buffer(static_cast<void **>(buffer_addr), size);
    });
}
FTMPI_PMPI(Buffer_detach)

}  // extern "C"
