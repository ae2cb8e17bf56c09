// MPI_Psend_init and MPI_Precv_init: checks and the persistent request
// (partitioned.hpp). Errors go through the communicator's error handler;
// the info argument is checked and otherwise not used.
#include "internal/comm.hpp"
#include "internal/datatype.hpp"
#include "internal/errors.hpp"
#include "internal/large_count.hpp"
#include "internal/pmpi.hpp"
#include "internal/runtime.hpp"
#include "p2p/checks.hpp"
#include "part/partitioned.hpp"

#include <climits>

namespace ftmpi::part {
namespace {

// The checks both calls share; `peer` may be MPI_PROC_NULL but no wildcard
// (MPI-4.0 §4.2.2: a partitioned receive names its source and tag).
int check(int partitions, MPI_Count count, MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Info info,
          MPI_Request *request) {
    if (int e = p2p::check_common(comm, 0, type)) return e;  // initialized, comm, type (count below: an MPI_Count)
    if (request == nullptr) return MPI_ERR_REQUEST;
    if (partitions < 1) return MPI_ERR_ARG;
    if (count < 0) return MPI_ERR_COUNT;
    // The whole message is one p2p message: at most INT_MAX elements.
    if (count > INT_MAX / partitions) return MPI_ERR_COUNT;
    if (tag < 0 || tag > max_user_tag) return MPI_ERR_TAG;
    if (int e = p2p::check_dest(comm, peer)) return e;
    if (info != MPI_INFO_NULL && !comm::valid(info)) return MPI_ERR_INFO;
    return MPI_SUCCESS;
}

int make(bool send, void *buf, int partitions, MPI_Count count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
         MPI_Info info, MPI_Request *request) {
    if (int e = check(partitions, count, type, peer, tag, comm, info, request)) return e;
    auto state = std::make_shared<Partitioned>();
    state->send = send;
    state->buf = buf;
    state->partitions = partitions;
    state->elements = static_cast<int>(count) * partitions;
    state->hold(type);
    state->peer = peer;
    state->tag = tag;
    state->comm = comm;
    if (peer == MPI_PROC_NULL) {
        state->data_tag = data_tag_base;  // nothing to match: any tag of the range
    } else if (send) {
        state->seq = matching_of(comm)->next_send(comm, peer, tag, &state->mailbox);
    } else {
        state->seq = matching_of(comm)->next_recv(peer, tag, &state->data_tag);
    }
    return make_request(std::move(state), request);
}

}  // namespace

extern "C" {

int MPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return comm::guarded(comm, "MPI_Psend_init", [&] {
        return make(true, const_cast<void *>(buf), partitions, count, datatype, dest, tag, comm, info, request);
    });
}
FTMPI_PMPI(Psend_init)

int MPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request) noexcept {
    return comm::guarded(comm, "MPI_Precv_init", [&] {
        return make(false, buf, partitions, count, datatype, source, tag, comm, info, request);
    });
}
FTMPI_PMPI(Precv_init)

}  // extern "C"

}  // namespace ftmpi::part
