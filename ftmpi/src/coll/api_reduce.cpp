// MPI_Reduce and MPI_Ireduce.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "node.hpp"
#include "select.hpp"

namespace ftmpi::coll {
namespace {

int check_reduce(MPI_Comm comm, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root) {
    int err = first_error(check_data(count, type), check_op(op, type), check_root(comm, root));
    // MPI_IN_PLACE is the root's alone, and never on intercommunicators.
    if (err == MPI_SUCCESS && (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE) &&
        (comm->inter || comm->rank != root || recvbuf == MPI_IN_PLACE))
        err = MPI_ERR_BUFFER;
    // The receive buffer counts at the root only.
    const bool root_here = comm->inter ? root == MPI_ROOT : comm->rank == root;
    return first_error(err, aliased(sendbuf, recvbuf, root_here && count > 0));
}

void build_reduce(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root) {
    s.hold(type);
    s.hold(op);
    if (s.comm()->inter) return reduce_inter(s, sendbuf, recvbuf, count, type, op, root);
    if (count == 0) return;
    root = view_root(s, root);
    // One algorithm besides shared memory (node.hpp), which this
    // communicator cannot use if the call came here.
    reduce_binomial(s, sendbuf, recvbuf, count, type, op, root);
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                          MPI_Comm comm) noexcept {
    return blocking_or(
        "MPI_Reduce", comm, [&] { return check_reduce(comm, sendbuf, recvbuf, count, type, op, root); },
        [&] { return node::reduce(sendbuf, recvbuf, count, type, op, root, comm); },
        [&](Schedule &s) { build_reduce(s, sendbuf, recvbuf, count, type, op, root); });
}
FTMPI_PMPI(Reduce)

extern "C" int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                           MPI_Comm comm, MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Ireduce", comm, request, [&] { return check_reduce(comm, sendbuf, recvbuf, count, type, op, root); },
        [&](Schedule &s) { build_reduce(s, sendbuf, recvbuf, count, type, op, root); });
}
FTMPI_PMPI(Ireduce)
