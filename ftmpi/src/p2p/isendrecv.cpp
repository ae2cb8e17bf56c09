// MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0 §3.10): a send and a
// receive started together, completed as one request whose status is the
// receive's. _replace sends a packed copy, so the receive may land in the
// same buffer at once.
#include "internal/datatype.hpp"
#include "p2p/binding.hpp"
#include "p2p/checks.hpp"
#include "p2p/operations.hpp"

#include <memory>
#include <vector>

using namespace ftmpi::p2p;

namespace {

// Argument checks of both halves before anything is posted, so an error
// leaves nothing behind. A side with count 0 may name no datatype, as for
// MPI_Send/MPI_Recv.
int check_side(MPI_Comm comm, MPI_Count count, MPI_Datatype type, int rank, bool send) {
    const bool empty = count == 0 && type == MPI_DATATYPE_NULL;
    if (int e = check_common(comm, count, empty ? MPI_BYTE : type)) return e;
    if (int e = send ? check_dest(comm, rank) : check_source(comm, rank)) return e;
    return MPI_SUCCESS;
}

struct Pair {
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};  // receive, send
    std::vector<char> staged;                                        // _replace: the packed outgoing data
};

// One request over both: done when both are; the receive's status, the
// first error of the two.
int join(std::shared_ptr<Pair> pair, MPI_Request *request) {
    *request = make_generalized([pair](MPI_Status *status) {
        int flag = 0;
        MPI_Status st[2];
        const int rc = test_all(2, pair->requests, &flag, st);
        if (!flag) return false;
        int error = rc;
        if (rc == MPI_ERR_IN_STATUS) error = st[0].MPI_ERROR != MPI_SUCCESS ? st[0].MPI_ERROR : st[1].MPI_ERROR;
        if (status) {
            *status = st[0];
            status->MPI_ERROR = error;
        }
        pair->staged.clear();
        return true;
    });
    return *request == MPI_REQUEST_NULL ? MPI_ERR_INTERN : MPI_SUCCESS;
}

}  // namespace

namespace {

int isendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
              MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
              MPI_Request *request) {
    if (!request) return MPI_ERR_ARG;
    if (int e = check_side(comm, sendcount, sendtype, dest, true)) return e;
    if (int e = check_side(comm, recvcount, recvtype, source, false)) return e;
    if (int e = check_send_tag(sendtag, Channel::user)) return e;
    if (int e = check_recv_tag(recvtag, Channel::user)) return e;
    auto pair = std::make_shared<Pair>();
    if (int e = start_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, Channel::user, &pair->requests[0]))
        return e;
    if (int e = start_send(sendbuf, sendcount, sendtype, dest, sendtag, comm, Channel::user, SendMode::standard,
                           &pair->requests[1]))
        return e;  // not reached after the checks above
    return join(pair, request);
}

int isendrecv_replace(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                      MPI_Comm comm, MPI_Request *request) {
    if (!request) return MPI_ERR_ARG;
    if (int e = check_side(comm, count, datatype, dest, true)) return e;
    if (int e = check_side(comm, count, datatype, source, false)) return e;
    if (int e = check_send_tag(sendtag, Channel::user)) return e;
    if (int e = check_recv_tag(recvtag, Channel::user)) return e;
    auto pair = std::make_shared<Pair>();
    const bool typed = datatype != MPI_DATATYPE_NULL;
    const size_t bytes = typed ? static_cast<size_t>(count) * ftmpi::dt::size(datatype) : 0;
    pair->staged.resize(bytes);
    if (bytes) ftmpi::dt::pack(buf, count, datatype, 0, pair->staged.data(), bytes);
    if (int e = start_recv(buf, count, datatype, source, recvtag, comm, Channel::user, &pair->requests[0])) return e;
    if (int e = start_send(pair->staged.data(), static_cast<MPI_Count>(bytes), MPI_BYTE, dest, sendtag, comm,
                           Channel::user, SendMode::standard, &pair->requests[1]))
        return e;
    return join(pair, request);
}

}  // namespace

extern "C" {

// Each call twice: the int form and the MPI-4 large-count (`_c`) form.
#define FTMPI_ISENDRECV(Suffix, Count)                                                                                 \
    int MPI_Isendrecv##Suffix(const void *sendbuf, Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,      \
                              void *recvbuf, Count recvcount, MPI_Datatype recvtype, int source, int recvtag,          \
                              MPI_Comm comm, MPI_Request *request) noexcept {                                          \
        return guarded(comm, "MPI_Isendrecv" #Suffix, [&] {                                                            \
            return isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,        \
                             recvtag, comm, request);                                                                  \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Isendrecv##Suffix)                                                                                      \
    int MPI_Isendrecv_replace##Suffix(void *buf, Count count, MPI_Datatype datatype, int dest, int sendtag,            \
                                      int source, int recvtag, MPI_Comm comm, MPI_Request *request) noexcept {         \
        return guarded(comm, "MPI_Isendrecv_replace" #Suffix, [&] {                                                    \
            return isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, request);             \
        });                                                                                                            \
    }                                                                                                                  \
    FTMPI_PMPI(Isendrecv_replace##Suffix)
FTMPI_ISENDRECV(, int)
FTMPI_ISENDRECV(_c, MPI_Count)
#undef FTMPI_ISENDRECV

}  // extern "C"
