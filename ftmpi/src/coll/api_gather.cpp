// MPI_Gather(v) and their I-forms. On an intercommunicator the root passes
// MPI_ROOT (its recvcounts and displs indexed by remote rank), the rest of its
// group MPI_PROC_NULL, the other group the root's rank.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "node.hpp"
#include "select.hpp"

namespace ftmpi::coll {
namespace {

// The send side matters everywhere except at an in-place root; the receive
// side only at the root.
int check_send_side(MPI_Comm comm, const void *sendbuf, int scount, MPI_Datatype stype, int root) {
    const bool root_here = comm->inter ? root == MPI_ROOT : comm->rank == root;
    if (sendbuf == MPI_IN_PLACE) return root_here && !comm->inter ? MPI_SUCCESS : MPI_ERR_BUFFER;
    if (comm->inter && (root == MPI_ROOT || root == MPI_PROC_NULL)) return MPI_SUCCESS;
    return check_data(scount, stype);
}

int check_gather(MPI_Comm comm, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                 MPI_Datatype rtype, int root) {
    int err = first_error(check_root(comm, root), MPI_SUCCESS);
    if (err != MPI_SUCCESS) return err;
    err = check_send_side(comm, sendbuf, scount, stype, root);
    if (err == MPI_SUCCESS && is_root(comm, root))
        err = first_error(check_data(rcount, rtype), recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS,
                          comm->inter
                              ? MPI_SUCCESS
                              : aliased(sendbuf, block_of(recvbuf, MPI_Aint{comm->rank} * rcount, rtype), scount > 0));
    return err;
}

void build_gather(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                  MPI_Datatype rtype, int root) {
    MPI_Comm comm = s.comm();
    const bool root_here = is_root(comm, root);
    if (sendbuf != MPI_IN_PLACE && !(comm->inter && root_here)) s.hold(stype);
    if (root_here) s.hold(rtype);
    if (comm->inter) return gather_inter(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
    root = view_root(s, root);
    const size_t block = root_here ? data_bytes(rcount, rtype) : data_bytes(scount, stype);
    switch (choose<RootedAlgorithm>(Collective::gather, s.size(), block).algorithm) {
    case RootedAlgorithm::linear: return gather_linear(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
    case RootedAlgorithm::binomial: return gather_binomial(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
    case RootedAlgorithm::shm:  // a communicator that cannot use it
    case RootedAlgorithm::automatic: break;
    }
    if (block >= threshold::gather_linear_bytes || s.size() <= 2)
        return gather_linear(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
    gather_binomial(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
}

int check_gatherv(MPI_Comm comm, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                  const int rcounts[], const int displs[], MPI_Datatype rtype, int root) {
    int err = check_root(comm, root);
    if (err == MPI_SUCCESS) err = check_send_side(comm, sendbuf, scount, stype, root);
    if (err == MPI_SUCCESS && is_root(comm, root)) {
        err = check_counts(peer_count(comm), rcounts, rtype);
        if (err == MPI_SUCCESS && (displs == nullptr || recvbuf == MPI_IN_PLACE)) err = MPI_ERR_ARG;
        if (err == MPI_SUCCESS && !comm->inter)
            err = aliased(sendbuf, block_of(recvbuf, displs[comm->rank], rtype), scount > 0);
    }
    return err;
}

void build_gatherv(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, const int rcounts[],
                   const int displs[], MPI_Datatype rtype, int root) {
    MPI_Comm comm = s.comm();
    if (sendbuf != MPI_IN_PLACE && has_own_block(comm, root)) s.hold(stype);
    if (is_root(comm, root)) s.hold(rtype);
    if (comm->inter) return gatherv_inter(s, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, root);
    gatherv_linear(s, sendbuf, scount, stype, recvbuf, rcounts, displs, rtype, view_root(s, root));
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm) noexcept {
    return blocking_or(
        "MPI_Gather", comm,
        [&] { return check_gather(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); },
        [&] { return node::gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); },
        [&](Schedule &s) { build_gather(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); });
}
FTMPI_PMPI(Gather)

extern "C" int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Igather", comm, request,
        [&] { return check_gather(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); },
        [&](Schedule &s) { build_gather(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); });
}
FTMPI_PMPI(Igather)

extern "C" int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                           MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Gatherv", comm,
        [&] { return check_gatherv(comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root); },
        [&](Schedule &s) {
            build_gatherv(s, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
        });
}
FTMPI_PMPI(Gatherv)

extern "C" int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Igatherv", comm, request,
        [&] { return check_gatherv(comm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root); },
        [&](Schedule &s) {
            build_gatherv(s, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root);
        });
}
FTMPI_PMPI(Igatherv)
