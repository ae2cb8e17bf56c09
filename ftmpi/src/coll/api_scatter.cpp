// MPI_Scatter(v) and their I-forms. On an intercommunicator the root passes
// MPI_ROOT (its sendcounts and displs indexed by remote rank), the rest of its
// group MPI_PROC_NULL, the other group the root's rank.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "node.hpp"
#include "select.hpp"

namespace ftmpi::coll {
namespace {

// The receive side matters everywhere except at an in-place root (and the
// root's group of an intercommunicator); the send side only at the root.
int check_recv_side(MPI_Comm comm, void *recvbuf, int rcount, MPI_Datatype rtype, int root) {
    if (recvbuf == MPI_IN_PLACE) return is_root(comm, root) && !comm->inter ? MPI_SUCCESS : MPI_ERR_BUFFER;
    if (comm->inter && (root == MPI_ROOT || root == MPI_PROC_NULL)) return MPI_SUCCESS;
    return check_data(rcount, rtype);
}

int check_scatter(MPI_Comm comm, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                  MPI_Datatype rtype, int root) {
    int err = check_root(comm, root);
    if (err == MPI_SUCCESS) err = check_recv_side(comm, recvbuf, rcount, rtype, root);
    if (err == MPI_SUCCESS && is_root(comm, root))
        err = first_error(check_data(scount, stype), sendbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS,
                          comm->inter
                              ? MPI_SUCCESS
                              : aliased(recvbuf, block_of(sendbuf, MPI_Aint{comm->rank} * scount, stype), rcount > 0));
    return err;
}

void build_scatter(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                   MPI_Datatype rtype, int root) {
    MPI_Comm comm = s.comm();
    const bool root_here = is_root(comm, root);
    if (recvbuf != MPI_IN_PLACE && !(comm->inter && root_here)) s.hold(rtype);
    if (root_here) s.hold(stype);
    if (comm->inter) return scatter_inter(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
    root = view_root(s, root);
    const size_t block = root_here ? data_bytes(scount, stype) : data_bytes(rcount, rtype);
    switch (choose<RootedAlgorithm>(Collective::scatter, s.size(), block).algorithm) {
    case RootedAlgorithm::linear: return scatter_linear(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
    case RootedAlgorithm::binomial: return scatter_binomial(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
    case RootedAlgorithm::shm:  // a communicator that cannot use it
    case RootedAlgorithm::automatic: break;
    }
    if (block >= threshold::gather_linear_bytes || s.size() <= 2)
        return scatter_linear(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
    scatter_binomial(s, sendbuf, scount, stype, recvbuf, rcount, rtype, root);
}

int check_scatterv(MPI_Comm comm, const void *sendbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                   void *recvbuf, int rcount, MPI_Datatype rtype, int root) {
    int err = check_root(comm, root);
    if (err == MPI_SUCCESS) err = check_recv_side(comm, recvbuf, rcount, rtype, root);
    if (err == MPI_SUCCESS && is_root(comm, root)) {
        err = check_counts(peer_count(comm), scounts, stype);
        if (err == MPI_SUCCESS && (displs == nullptr || sendbuf == MPI_IN_PLACE)) err = MPI_ERR_ARG;
        if (err == MPI_SUCCESS && !comm->inter)
            err = aliased(recvbuf, block_of(sendbuf, displs[comm->rank], stype), rcount > 0);
    }
    return err;
}

void build_scatterv(Schedule &s, const void *sendbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                    void *recvbuf, int rcount, MPI_Datatype rtype, int root) {
    MPI_Comm comm = s.comm();
    if (recvbuf != MPI_IN_PLACE && has_own_block(comm, root)) s.hold(rtype);
    if (is_root(comm, root)) s.hold(stype);
    if (comm->inter) return scatterv_inter(s, sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, root);
    scatterv_linear(s, sendbuf, scounts, displs, stype, recvbuf, rcount, rtype, view_root(s, root));
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, int root, MPI_Comm comm) noexcept {
    return blocking_or(
        "MPI_Scatter", comm,
        [&] { return check_scatter(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); },
        [&] { return node::scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm); },
        [&](Schedule &s) { build_scatter(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); },
        Strict::none);
}
FTMPI_PMPI(Scatter)

extern "C" int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Iscatter", comm, request,
        [&] { return check_scatter(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); },
        [&](Schedule &s) { build_scatter(s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root); },
        Strict::none);
}
FTMPI_PMPI(Iscatter)

extern "C" int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Scatterv", comm,
        [&] { return check_scatterv(comm, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root); },
        [&](Schedule &s) {
            build_scatterv(s, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
        },
        Strict::none);
}
FTMPI_PMPI(Scatterv)

extern "C" int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Iscatterv", comm, request,
        [&] { return check_scatterv(comm, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root); },
        [&](Schedule &s) {
            build_scatterv(s, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root);
        },
        Strict::none);
}
FTMPI_PMPI(Iscatterv)
