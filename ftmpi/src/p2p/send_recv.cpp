// MPI_Send/Bsend/Ssend/Rsend, their I-forms, MPI_Recv,
// MPI_Irecv, MPI_Sendrecv and MPI_Sendrecv_replace, each with its MPI-4
// large-count (`_c`) twin: both forms run the same code with an MPI_Count.
#include "internal/datatype.hpp"
#include "p2p/binding.hpp"
#include "p2p/checks.hpp"
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

#include <vector>

using namespace ftmpi::p2p;
using ftmpi::p2p::Channel;

namespace {

int blocking_send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  SendMode mode) {
    MPI_Request r;
    bool completed = false;
    if (int e = start_send(buf, count, type, dest, tag, comm, Channel::user, mode, &r, &completed)) return e;
    // An eager send is usually written at once: no second trip through the engine's lock.
    return completed ? retire(&r, MPI_STATUS_IGNORE) : wait_one(&r, MPI_STATUS_IGNORE);
}

int sendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
             MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
    MPI_Request rs[2];
    if (int e = start_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, Channel::user, &rs[0])) return e;
    if (int e =
            start_send(sendbuf, sendcount, sendtype, dest, sendtag, comm, Channel::user, SendMode::standard, &rs[1])) {
        Engine::get().cancel(rs[0]);  // the receive must not linger once the call failed
        wait_one(&rs[0], MPI_STATUS_IGNORE);
        return e;
    }
    MPI_Status st[2];
    int e = wait_all(2, rs, st, true);
    if (status) *status = st[0];
    if (e == MPI_ERR_IN_STATUS) return st[0].MPI_ERROR != MPI_SUCCESS ? st[0].MPI_ERROR : st[1].MPI_ERROR;
    return e;
}

int receive(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status) {
    MPI_Request r;
    bool completed = false;
    if (int e = start_recv(buf, count, type, source, tag, comm, Channel::user, &r, &completed)) return e;
    // The message had arrived: nothing to wait for (an ANY_SOURCE receive
    // that failures may stop is complete too, so it needs no check).
    return completed ? retire(&r, status) : wait_one(&r, status, true);
}

// Sends from a packed copy so the receive can land in buf.
int sendrecv_replace(void *buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                     MPI_Comm comm, MPI_Status *status) {
    if (int e = check_common(comm, count, type)) return e;
    const size_t bytes = static_cast<size_t>(count) * ftmpi::dt::size(type);
    std::vector<char> copy(bytes);
    if (bytes) ftmpi::dt::pack(buf, count, type, 0, copy.data(), bytes);
    return sendrecv(copy.data(), static_cast<MPI_Count>(bytes), MPI_PACKED, dest, sendtag, buf, count, type, source,
                    recvtag, comm, status);
}

}  // namespace

extern "C" {

#define FTMPI_BLOCKING_SEND(Name, Suffix, Count, mode)                                                                 \
    int MPI_##Name##Suffix(const void *buf, Count count, MPI_Datatype type, int dest, int tag,                         \
                           MPI_Comm comm) noexcept {                                                                   \
        return guarded(comm, "MPI_" #Name #Suffix,                                                                     \
                       [&] { return blocking_send(buf, count, type, dest, tag, comm, mode); });                        \
    }                                                                                                                  \
    FTMPI_PMPI(Name##Suffix)

#define FTMPI_NONBLOCKING_SEND(Name, Suffix, Count, mode)                                                              \
    int MPI_##Name##Suffix(const void *buf, Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,          \
                           MPI_Request *request) noexcept {                                                            \
        return guarded(comm, "MPI_" #Name #Suffix,                                                                     \
                       [&] { return start_send(buf, count, type, dest, tag, comm, Channel::user, mode, request); });   \
    }                                                                                                                  \
    FTMPI_PMPI(Name##Suffix)

#define FTMPI_RECEIVES(Suffix, Count)                                                                                  \
    int MPI_Recv##Suffix(void *buf, Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,                \
                         MPI_Status *status) noexcept {                                                                \
        KeepStatusError keep(status);                                                                                  \
        return guarded(comm, "MPI_Recv" #Suffix,                                                                       \
                       [&] { return receive(buf, count, type, source, tag, comm, status); });                          \
    }                                                                                                                  \
    FTMPI_PMPI(Recv##Suffix)                                                                                           \
    int MPI_Irecv##Suffix(void *buf, Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,               \
                          MPI_Request *request) noexcept {                                                             \
        return guarded(comm, "MPI_Irecv" #Suffix,                                                                      \
                       [&] { return start_recv(buf, count, type, source, tag, comm, Channel::user, request); });       \
    }                                                                                                                  \
    FTMPI_PMPI(Irecv##Suffix)                                                                                          \
    int MPI_Sendrecv##Suffix(const void *sendbuf, Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,       \
                             void *recvbuf, Count recvcount, MPI_Datatype recvtype, int source, int recvtag,           \
                             MPI_Comm comm, MPI_Status *status) noexcept {                                             \
        return guarded(comm, "MPI_Sendrecv" #Suffix, [&] {                                                             \
            return sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,         \
                            recvtag, comm, status);                                                                    \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Sendrecv##Suffix)                                                                                       \
    int MPI_Sendrecv_replace##Suffix(void *buf, Count count, MPI_Datatype type, int dest, int sendtag, int source,     \
                                     int recvtag, MPI_Comm comm, MPI_Status *status) noexcept {                        \
        return guarded(comm, "MPI_Sendrecv_replace" #Suffix, [&] {                                                     \
            return sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);                   \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Sendrecv_replace##Suffix)

// Each call twice: the int form and the MPI-4 large-count form.
#define FTMPI_TWINS(Define, Name, mode) Define(Name, , int, mode) Define(Name, _c, MPI_Count, mode)

FTMPI_TWINS(FTMPI_BLOCKING_SEND, Send, SendMode::standard)
FTMPI_TWINS(FTMPI_BLOCKING_SEND, Bsend, SendMode::buffered)
FTMPI_TWINS(FTMPI_BLOCKING_SEND, Ssend, SendMode::synchronous)
FTMPI_TWINS(FTMPI_BLOCKING_SEND, Rsend, SendMode::ready)
FTMPI_TWINS(FTMPI_NONBLOCKING_SEND, Isend, SendMode::standard)
FTMPI_TWINS(FTMPI_NONBLOCKING_SEND, Ibsend, SendMode::buffered)
FTMPI_TWINS(FTMPI_NONBLOCKING_SEND, Issend, SendMode::synchronous)
FTMPI_TWINS(FTMPI_NONBLOCKING_SEND, Irsend, SendMode::ready)
FTMPI_RECEIVES(, int)
FTMPI_RECEIVES(_c, MPI_Count)

#undef FTMPI_TWINS
#undef FTMPI_RECEIVES
#undef FTMPI_NONBLOCKING_SEND
#undef FTMPI_BLOCKING_SEND

}  // extern "C"
