// MPI_Send/Bsend/Ssend/Rsend, their I-forms, MPI_Recv,
// MPI_Irecv, MPI_Sendrecv and MPI_Sendrecv_replace.
#include "p2p/binding.hpp"
#include "p2p/checks.hpp"
#include "p2p/engine.hpp"
#include "p2p/operations.hpp"

#include <vector>

using namespace ftmpi::p2p;
using ftmpi::p2p::Channel;

namespace {

int blocking_send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, SendMode mode) {
    MPI_Request r;
    bool completed = false;
    if (int e = start_send(buf, count, type, dest, tag, comm, Channel::user, mode, &r, &completed)) return e;
    // An eager send is usually written at once: no second trip through the engine's lock.
    return completed ? retire(&r, MPI_STATUS_IGNORE) : wait_one(&r, MPI_STATUS_IGNORE);
}

int sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
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

}  // namespace

extern "C" {

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) noexcept {
    return guarded(comm, "MPI_Send",
                   [&] { return blocking_send(buf, count, type, dest, tag, comm, SendMode::standard); });
}
FTMPI_PMPI(Send)

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) noexcept {
    return guarded(comm, "MPI_Bsend",
                   [&] { return blocking_send(buf, count, type, dest, tag, comm, SendMode::buffered); });
}
FTMPI_PMPI(Bsend)

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) noexcept {
    return guarded(comm, "MPI_Ssend",
                   [&] { return blocking_send(buf, count, type, dest, tag, comm, SendMode::synchronous); });
}
FTMPI_PMPI(Ssend)

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) noexcept {
    return guarded(comm, "MPI_Rsend",
                   [&] { return blocking_send(buf, count, type, dest, tag, comm, SendMode::ready); });
}
FTMPI_PMPI(Rsend)

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *request) noexcept {
    return guarded(comm, "MPI_Isend", [&] {
        return start_send(buf, count, type, dest, tag, comm, Channel::user, SendMode::standard, request);
    });
}
FTMPI_PMPI(Isend)

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) noexcept {
    return guarded(comm, "MPI_Ibsend", [&] {
        return start_send(buf, count, type, dest, tag, comm, Channel::user, SendMode::buffered, request);
    });
}
FTMPI_PMPI(Ibsend)

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) noexcept {
    return guarded(comm, "MPI_Issend", [&] {
        return start_send(buf, count, type, dest, tag, comm, Channel::user, SendMode::synchronous, request);
    });
}
FTMPI_PMPI(Issend)

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) noexcept {
    return guarded(comm, "MPI_Irsend", [&] {
        return start_send(buf, count, type, dest, tag, comm, Channel::user, SendMode::ready, request);
    });
}
FTMPI_PMPI(Irsend)

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status) noexcept {
    KeepStatusError keep(status);
    return guarded(comm, "MPI_Recv", [&] {
        MPI_Request r;
        bool completed = false;
        if (int e = start_recv(buf, count, type, source, tag, comm, Channel::user, &r, &completed)) return e;
        // The message had arrived: nothing to wait for (an ANY_SOURCE receive
        // that failures may stop is complete too, so it needs no check).
        return completed ? retire(&r, status) : wait_one(&r, status, true);
    });
}
FTMPI_PMPI(Recv)

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *request) noexcept {
    return guarded(comm, "MPI_Irecv",
                   [&] { return start_recv(buf, count, type, source, tag, comm, Channel::user, request); });
}
FTMPI_PMPI(Irecv)

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                 MPI_Status *status) noexcept {
    return guarded(comm, "MPI_Sendrecv", [&] {
        return sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                        comm, status);
    });
}
FTMPI_PMPI(Sendrecv)

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status *status) noexcept {
    return guarded(comm, "MPI_Sendrecv_replace", [&]() -> int {
        if (int e = check_common(comm, count, type)) return e;
        // Send from a packed copy so the receive can land in buf.
        int packed_size = 0;
        if (int e = PMPI_Pack_size(count, type, comm, &packed_size)) return e;
        std::vector<char> copy(static_cast<size_t>(packed_size));
        int position = 0;
        if (int e = PMPI_Pack(buf, count, type, copy.data(), packed_size, &position, comm)) return e;
        return sendrecv(copy.data(), position, MPI_PACKED, dest, sendtag, buf, count, type, source, recvtag, comm,
                        status);
    });
}
FTMPI_PMPI(Sendrecv_replace)

}  // extern "C"
