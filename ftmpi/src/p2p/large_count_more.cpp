// The MPI-4 large-count (`_c`) point-to-point calls beyond those of
// large_count.cpp: the persistent send modes, the matched and combined
// receives, the buffer for buffered sends. Counts that fit an int go to the
// int call; larger ones are refused with MPI_ERR_COUNT.
#include "internal/large_count.hpp"

using ftmpi::large_count::narrow;
using ftmpi::large_count::too_large;

// The persistent send modes (MPI_Send_init_c is in large_count.cpp).
#define FTMPI_SEND_INIT_C(Name)                                                                                        \
    FTMPI_LARGE_COUNT(Name, comm,                                                                                      \
                      (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,      \
                       MPI_Request *request),                                                                          \
                      (count), (buf, narrow(count), datatype, dest, tag, comm, request))

FTMPI_SEND_INIT_C(Bsend_init)
FTMPI_SEND_INIT_C(Ssend_init)
FTMPI_SEND_INIT_C(Rsend_init)

FTMPI_LARGE_COUNT(Buffer_attach, MPI_COMM_WORLD, (void *buffer, MPI_Count size), (size), (buffer, narrow(size)))

FTMPI_LARGE_COUNT(Imrecv, MPI_COMM_WORLD,
                  (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request),
                  (count), (buf, narrow(count), datatype, message, request))

FTMPI_LARGE_COUNT(Isendrecv, comm,
                  (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Request *request),
                  (sendcount, recvcount),
                  (sendbuf, narrow(sendcount), sendtype, dest, sendtag, recvbuf, narrow(recvcount), recvtype, source,
                   recvtag, comm, request))

FTMPI_LARGE_COUNT(Isendrecv_replace, comm,
                  (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                   MPI_Comm comm, MPI_Request *request),
                  (count), (buf, narrow(count), datatype, dest, sendtag, source, recvtag, comm, request))

FTMPI_LARGE_COUNT(Sendrecv_replace, comm,
                  (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                   MPI_Comm comm, MPI_Status *status),
                  (count), (buf, narrow(count), datatype, dest, sendtag, source, recvtag, comm, status))

// The attached buffer's size as an MPI_Count (it is at most INT_MAX bytes).
extern "C" int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size) noexcept {
    if (size == nullptr) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Buffer_detach_c");
    int bytes = 0;
    const int e = MPI_Buffer_detach(buffer_addr, &bytes);
    if (e == MPI_SUCCESS) *size = bytes;
    return e;
}
FTMPI_PMPI(Buffer_detach_c)
