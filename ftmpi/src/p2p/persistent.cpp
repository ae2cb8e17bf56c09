// Persistent requests: MPI_*_init (and their large-count `_c` forms),
// MPI_Start(all).
#include "p2p/binding.hpp"
#include "p2p/operations.hpp"

using namespace ftmpi::p2p;

extern "C" {

// Each *_init twice: the int form and the MPI-4 large-count (`_c`) form.
#define FTMPI_SEND_INIT(Name, Suffix, Count, mode)                                                                     \
    int MPI_##Name##Suffix(const void *buf, Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,          \
                           MPI_Request *request) noexcept {                                                            \
        return guarded(comm, "MPI_" #Name #Suffix,                                                                     \
                       [&] { return make_persistent_send(buf, count, type, dest, tag, comm, mode, request); });        \
    }                                                                                                                  \
    FTMPI_PMPI(Name##Suffix)
#define FTMPI_SEND_INIT_TWINS(Name, mode) FTMPI_SEND_INIT(Name, , int, mode) FTMPI_SEND_INIT(Name, _c, MPI_Count, mode)

FTMPI_SEND_INIT_TWINS(Send_init, SendMode::standard)
FTMPI_SEND_INIT_TWINS(Bsend_init, SendMode::buffered)
FTMPI_SEND_INIT_TWINS(Ssend_init, SendMode::synchronous)
FTMPI_SEND_INIT_TWINS(Rsend_init, SendMode::ready)
#undef FTMPI_SEND_INIT_TWINS
#undef FTMPI_SEND_INIT

#define FTMPI_RECV_INIT(Suffix, Count)                                                                                 \
    int MPI_Recv_init##Suffix(void *buf, Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,           \
                              MPI_Request *request) noexcept {                                                         \
        return guarded(comm, "MPI_Recv_init" #Suffix,                                                                  \
                       [&] { return make_persistent_recv(buf, count, type, source, tag, comm, request); });            \
    }                                                                                                                  \
    FTMPI_PMPI(Recv_init##Suffix)
FTMPI_RECV_INIT(, int)
FTMPI_RECV_INIT(_c, MPI_Count)
#undef FTMPI_RECV_INIT

int MPI_Start(MPI_Request *request) noexcept {
    if (!request) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Start");
    return guarded(error_comm(*request), "MPI_Start", [&] { return start_persistent(*request); });
}
FTMPI_PMPI(Start)

int MPI_Startall(int count, MPI_Request requests[]) noexcept {
    if (count < 0 || (count > 0 && !requests)) return ftmpi::comm::raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Startall");
    MPI_Comm comm = count > 0 ? error_comm(requests[0]) : MPI_COMM_WORLD;
    return guarded(comm, "MPI_Startall", [&] {
        for (int i = 0; i < count; ++i)
            if (int e = start_persistent(requests[i])) return e;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(Startall)

}  // extern "C"
