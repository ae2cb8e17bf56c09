// MPI_Allreduce and MPI_Iallreduce.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "node.hpp"
#include "select.hpp"

namespace ftmpi::coll {
namespace {

int check_allreduce(MPI_Comm comm, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op) {
    int err = first_error(check_data(count, type), check_op(op, type));
    if (err == MPI_SUCCESS && (recvbuf == MPI_IN_PLACE || (sendbuf == MPI_IN_PLACE && comm->inter)))
        err = MPI_ERR_BUFFER;
    return first_error(err, aliased(sendbuf, recvbuf, count > 0));
}

void build_allreduce(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op) {
    MPI_Comm comm = s.comm();
    s.hold(type);
    s.hold(op);
    if (comm->inter) return allreduce_inter(s, sendbuf, recvbuf, count, type, op);
    if (count == 0) return;
    // The ring cuts the vector into p blocks and combines them in ring order;
    // Rabenseifner's halving combines blocks in partner order.
    const bool commutative = op::commutative(op);
    const bool ring_ok = commutative && count >= s.size();
    const size_t bytes = data_bytes(count, type);
    switch (choose<AllreduceAlgorithm>(Collective::allreduce, s.size(), bytes).algorithm) {
    case AllreduceAlgorithm::recursive_doubling:
        return allreduce_recursive_doubling(s, sendbuf, recvbuf, count, type, op);
    case AllreduceAlgorithm::reduce_bcast: return allreduce_reduce_bcast(s, sendbuf, recvbuf, count, type, op);
    case AllreduceAlgorithm::ring:
        if (ring_ok) return allreduce_ring(s, sendbuf, recvbuf, count, type, op);
        break;
    case AllreduceAlgorithm::rabenseifner:
        if (commutative) return allreduce_rabenseifner(s, sendbuf, recvbuf, count, type, op);
        break;
    case AllreduceAlgorithm::shm:  // a communicator that cannot use it
    case AllreduceAlgorithm::automatic: break;
    }
    if (ring_ok && s.size() > 2 && data_bytes(count, type) >= threshold::allreduce_ring_bytes)
        return allreduce_ring(s, sendbuf, recvbuf, count, type, op);
    allreduce_recursive_doubling(s, sendbuf, recvbuf, count, type, op);
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm) noexcept {
    return blocking_or(
        "MPI_Allreduce", comm, [&] { return check_allreduce(comm, sendbuf, recvbuf, count, type, op); },
        [&] { return node::allreduce(sendbuf, recvbuf, count, type, op, comm); },
        [&](Schedule &s) { build_allreduce(s, sendbuf, recvbuf, count, type, op); });
}
FTMPI_PMPI(Allreduce)

extern "C" int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm, MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Iallreduce", comm, request, [&] { return check_allreduce(comm, sendbuf, recvbuf, count, type, op); },
        [&](Schedule &s) { build_allreduce(s, sendbuf, recvbuf, count, type, op); });
}
FTMPI_PMPI(Iallreduce)
