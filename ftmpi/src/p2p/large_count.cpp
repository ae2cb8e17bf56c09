// The MPI-4 large-count (`_c`) point-to-point calls: MPI_Count counts that
// fit an int go to the int call; larger ones are refused with
// MPI_ERR_COUNT (the engine moves at most INT_MAX elements per message).
#include "internal/large_count.hpp"
#include "p2p/binding.hpp"

using ftmpi::large_count::fits;
using ftmpi::large_count::too_large;

extern "C" {

#define FTMPI_SEND_C(Name)                                                                                             \
    int MPI_##Name##_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,                     \
                       MPI_Comm comm) noexcept {                                                                       \
        if (!fits(count)) return too_large(comm, "MPI_" #Name "_c");                                                   \
        return MPI_##Name(buf, static_cast<int>(count), datatype, dest, tag, comm);                                    \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)

FTMPI_SEND_C(Send)
FTMPI_SEND_C(Ssend)
FTMPI_SEND_C(Bsend)
FTMPI_SEND_C(Rsend)
#undef FTMPI_SEND_C

#define FTMPI_ISEND_C(Name)                                                                                            \
    int MPI_##Name##_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,      \
                       MPI_Request *request) noexcept {                                                                \
        if (!fits(count)) return too_large(comm, "MPI_" #Name "_c");                                                   \
        return MPI_##Name(buf, static_cast<int>(count), datatype, dest, tag, comm, request);                           \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)

FTMPI_ISEND_C(Isend)
FTMPI_ISEND_C(Issend)
FTMPI_ISEND_C(Ibsend)
FTMPI_ISEND_C(Irsend)
FTMPI_ISEND_C(Send_init)
#undef FTMPI_ISEND_C

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Status *status) noexcept {
    if (!fits(count)) return too_large(comm, "MPI_Recv_c");
    return MPI_Recv(buf, static_cast<int>(count), datatype, source, tag, comm, status);
}
FTMPI_PMPI(Recv_c)

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Request *request) noexcept {
    if (!fits(count)) return too_large(comm, "MPI_Irecv_c");
    return MPI_Irecv(buf, static_cast<int>(count), datatype, source, tag, comm, request);
}
FTMPI_PMPI(Irecv_c)

int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                    MPI_Request *request) noexcept {
    if (!fits(count)) return too_large(comm, "MPI_Recv_init_c");
    return MPI_Recv_init(buf, static_cast<int>(count), datatype, source, tag, comm, request);
}
FTMPI_PMPI(Recv_init_c)

int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Status *status) noexcept {
    if (!fits(sendcount) || !fits(recvcount)) return too_large(comm, "MPI_Sendrecv_c");
    return MPI_Sendrecv(sendbuf, static_cast<int>(sendcount), sendtype, dest, sendtag, recvbuf,
                        static_cast<int>(recvcount), recvtype, source, recvtag, comm, status);
}
FTMPI_PMPI(Sendrecv_c)

int MPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status) noexcept {
    if (!fits(count)) return too_large(MPI_COMM_WORLD, "MPI_Mrecv_c");
    return MPI_Mrecv(buf, static_cast<int>(count), datatype, message, status);
}
FTMPI_PMPI(Mrecv_c)

// The counts of a status in MPI_Count: nothing to refuse.
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) noexcept {
    if (!status || !count) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_count_c");
    int size = 0;
    if (int e = MPI_Type_size(datatype, &size); e != MPI_SUCCESS) return e;
    MPI_Count bytes = 0;
    if (int e = MPI_Get_elements_x(status, MPI_BYTE, &bytes); e != MPI_SUCCESS) return e;
    MPI_Count type_size = 0;
    MPI_Type_size_x(datatype, &type_size);
    if (type_size == 0)
        *count = bytes == 0 ? 0 : MPI_UNDEFINED;
    else
        *count = bytes % type_size ? MPI_UNDEFINED : bytes / type_size;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Get_count_c)

int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count) noexcept {
    return MPI_Get_elements_x(status, datatype, count);
}
FTMPI_PMPI(Get_elements_c)

}  // extern "C"
