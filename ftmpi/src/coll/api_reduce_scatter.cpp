// MPI_Reduce_scatter(_block) and their I-forms.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "select.hpp"

#include <vector>

namespace ftmpi::coll {
namespace {

int check_reduce_scatter(MPI_Comm comm, void *recvbuf, const int counts[], MPI_Datatype type, MPI_Op op) {
    return first_error(intra_only(comm), check_counts(comm->size, counts, type), check_op(op, type),
                       recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS);
}

void build_reduce_scatter(Schedule &s, const void *sendbuf, void *recvbuf, const int counts[], MPI_Datatype type,
                          MPI_Op op) {
    MPI_Comm comm = s.comm();
    s.hold(type);
    s.hold(op);
    size_t total = 0;
    for (int i = 0; i < comm->size; ++i) total += static_cast<size_t>(counts[i]);
    if (total == 0) return;
    // The ring cuts the vector into one block per live rank: not on a comm
    // with gaps, whose vector also holds the gaps' blocks.
    const bool ring_ok = op::commutative(op) && s.size() > 1 && !s.has_gaps();
    const size_t bytes = total * dt::size(type);
    switch (choose<ReduceScatterAlgorithm>(Collective::reduce_scatter, s.size(), bytes).algorithm) {
    case ReduceScatterAlgorithm::reduce_scatterv:
        return reduce_scatter_reduce_scatterv(s, sendbuf, recvbuf, counts, type, op);
    case ReduceScatterAlgorithm::ring:
        if (ring_ok) return reduce_scatter_ring(s, sendbuf, recvbuf, counts, type, op);
        break;
    case ReduceScatterAlgorithm::recursive_halving:
        // The same conditions as the ring: blocks combined in partner order,
        // one block per live rank.
        if (ring_ok) return reduce_scatter_recursive_halving(s, sendbuf, recvbuf, counts, type, op);
        break;
    case ReduceScatterAlgorithm::automatic: break;
    }
    if (ring_ok && bytes >= threshold::reduce_scatter_ring_bytes)
        return reduce_scatter_ring(s, sendbuf, recvbuf, counts, type, op);
    reduce_scatter_reduce_scatterv(s, sendbuf, recvbuf, counts, type, op);
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
                                  MPI_Op op, MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Reduce_scatter", comm, [&] { return check_reduce_scatter(comm, recvbuf, recvcounts, type, op); },
        [&](Schedule &s) { build_reduce_scatter(s, sendbuf, recvbuf, recvcounts, type, op); });
}
FTMPI_PMPI(Reduce_scatter)

extern "C" int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
                                   MPI_Op op, MPI_Comm comm, MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Ireduce_scatter", comm, request, [&] { return check_reduce_scatter(comm, recvbuf, recvcounts, type, op); },
        [&](Schedule &s) { build_reduce_scatter(s, sendbuf, recvbuf, recvcounts, type, op); });
}
FTMPI_PMPI(Ireduce_scatter)

// The block form: every rank's count is recvcount.
extern "C" int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                                        MPI_Comm comm) noexcept {
    std::vector<int> counts;
    return blocking(
        "MPI_Reduce_scatter_block", comm,
        [&] {
            if (recvcount < 0) return MPI_ERR_COUNT;
            counts.assign(comm->size, recvcount);
            return check_reduce_scatter(comm, recvbuf, counts.data(), type, op);
        },
        [&](Schedule &s) { build_reduce_scatter(s, sendbuf, recvbuf, counts.data(), type, op); });
}
FTMPI_PMPI(Reduce_scatter_block)

extern "C" int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
                                         MPI_Op op, MPI_Comm comm, MPI_Request *request) noexcept {
    std::vector<int> counts;
    return nonblocking(
        "MPI_Ireduce_scatter_block", comm, request,
        [&] {
            if (recvcount < 0) return MPI_ERR_COUNT;
            counts.assign(comm->size, recvcount);
            return check_reduce_scatter(comm, recvbuf, counts.data(), type, op);
        },
        [&](Schedule &s) { build_reduce_scatter(s, sendbuf, recvbuf, counts.data(), type, op); });
}
FTMPI_PMPI(Ireduce_scatter_block)
