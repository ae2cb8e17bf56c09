// The MPI-4 large-count (`_c`) forms of the buffer for buffered sends: a
// buffer is at most INT_MAX bytes here, a larger one is refused with
// MPI_ERR_COUNT.
#include "internal/large_count.hpp"

using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;

FTMPI_LARGE_COUNT(Buffer_attach, MPI_COMM_WORLD, (void *buffer, MPI_Count size), (size), (buffer, narrow(size)))

// The attached buffer's size as an MPI_Count (it is at most INT_MAX bytes).
extern "C" int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size) noexcept {
    if (size == nullptr) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Buffer_detach_c");
    int bytes = 0;
    const int e = MPI_Buffer_detach(buffer_addr, &bytes);
    if (e == MPI_SUCCESS) *size = bytes;
    return e;
}
FTMPI_PMPI(Buffer_detach_c)
