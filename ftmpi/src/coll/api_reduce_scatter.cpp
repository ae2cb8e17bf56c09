// MPI_Reduce_scatter(_block) and their I-forms. On an intercommunicator each
// group receives the reduction of the other group's vectors, cut by its own
// recvcounts (both groups' vectors have the same length), and MPI_IN_PLACE is
// refused (MPI_ERR_BUFFER).
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "select.hpp"

#include <climits>
#include <vector>

namespace ftmpi::coll {
namespace {

// On an intercommunicator a receiver holds one whole vector per remote rank
// (algo_reduce_scatter_inter.cpp), so their total must be a count.
int check_inter_total(MPI_Comm comm, const int counts[]) {
    if (!comm->inter) return MPI_SUCCESS;
    long long total = 0;
    for (int i = 0; i < comm->size; ++i) total += counts[i];
    return total * peer_count(comm) <= INT_MAX ? MPI_SUCCESS : MPI_ERR_COUNT;
}

int check_reduce_scatter(MPI_Comm comm, const void *sendbuf, void *recvbuf, const int counts[], MPI_Datatype type,
                         MPI_Op op) {
    int err = first_error(check_counts(comm->size, counts, type), check_op(op, type), in_place_on_inter(comm, sendbuf),
                          recvbuf == MPI_IN_PLACE ? MPI_ERR_BUFFER : MPI_SUCCESS);
    if (err == MPI_SUCCESS) err = aliased(sendbuf, recvbuf, any_positive(comm->size, counts));
    return err == MPI_SUCCESS ? check_inter_total(comm, counts) : err;
}

// The block form; on an intercommunicator this group's vector (size *
// recvcount) must cut into equal blocks for the remote ranks.
int check_reduce_scatter_block(MPI_Comm comm, const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
                               MPI_Op op, std::vector<int> &counts) {
    if (recvcount < 0) return MPI_ERR_COUNT;
    counts.assign(comm->size, recvcount);
    int err = check_reduce_scatter(comm, sendbuf, recvbuf, counts.data(), type, op);
    const int q = peer_count(comm);
    if (err == MPI_SUCCESS && comm->inter && (q == 0 || static_cast<long long>(comm->size) * recvcount % q != 0))
        err = MPI_ERR_COUNT;
    return err;
}

void build_reduce_scatter(Schedule &s, const void *sendbuf, void *recvbuf, const int counts[], MPI_Datatype type,
                          MPI_Op op) {
    MPI_Comm comm = s.comm();
    s.hold(type);
    s.hold(op);
    size_t total = 0;
    for (int i = 0; i < comm->size; ++i) total += static_cast<size_t>(counts[i]);
    if (total == 0) return;
    if (comm->inter) return reduce_scatter_inter(s, sendbuf, recvbuf, counts, type, op);
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

// On an intercommunicator a sender knows the remote ranks' equal blocks, so
// each gets only its block; else as the general form.
void build_reduce_scatter_block(Schedule &s, const void *sendbuf, void *recvbuf, const std::vector<int> &counts,
                                MPI_Datatype type, MPI_Op op) {
    if (!s.comm()->inter || counts.empty() || counts[0] == 0)
        return build_reduce_scatter(s, sendbuf, recvbuf, counts.data(), type, op);
    s.hold(type);
    s.hold(op);
    reduce_scatter_block_inter(s, sendbuf, recvbuf, counts[0], type, op);
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
                                  MPI_Op op, MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Reduce_scatter", comm, [&] { return check_reduce_scatter(comm, sendbuf, recvbuf, recvcounts, type, op); },
        [&](Schedule &s) { build_reduce_scatter(s, sendbuf, recvbuf, recvcounts, type, op); });
}
FTMPI_PMPI(Reduce_scatter)

extern "C" int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
                                   MPI_Op op, MPI_Comm comm, MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Ireduce_scatter", comm, request,
        [&] { return check_reduce_scatter(comm, sendbuf, recvbuf, recvcounts, type, op); },
        [&](Schedule &s) { build_reduce_scatter(s, sendbuf, recvbuf, recvcounts, type, op); });
}
FTMPI_PMPI(Ireduce_scatter)

// The block form: every rank's count is recvcount.
extern "C" int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                                        MPI_Comm comm) noexcept {
    std::vector<int> counts;
    return blocking(
        "MPI_Reduce_scatter_block", comm,
        [&] { return check_reduce_scatter_block(comm, sendbuf, recvbuf, recvcount, type, op, counts); },
        [&](Schedule &s) { build_reduce_scatter_block(s, sendbuf, recvbuf, counts, type, op); });
}
FTMPI_PMPI(Reduce_scatter_block)

extern "C" int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
                                         MPI_Op op, MPI_Comm comm, MPI_Request *request) noexcept {
    std::vector<int> counts;
    return nonblocking(
        "MPI_Ireduce_scatter_block", comm, request,
        [&] { return check_reduce_scatter_block(comm, sendbuf, recvbuf, recvcount, type, op, counts); },
        [&](Schedule &s) { build_reduce_scatter_block(s, sendbuf, recvbuf, counts, type, op); });
}
FTMPI_PMPI(Ireduce_scatter_block)
