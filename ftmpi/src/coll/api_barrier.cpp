// MPI_Barrier and MPI_Ibarrier.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "node.hpp"
#include "select.hpp"

namespace ftmpi::coll {
namespace {

void build_barrier(Schedule &s) {
    MPI_Comm comm = s.comm();
    if (comm->inter) return barrier_inter(s);
    switch (choose<BarrierAlgorithm>(Collective::barrier, s.size(), 0).algorithm) {
    case BarrierAlgorithm::dissemination: return barrier_dissemination(s);
    case BarrierAlgorithm::tree: return barrier_tree(s);
    case BarrierAlgorithm::shm:  // a communicator that cannot use it
    case BarrierAlgorithm::automatic: break;
    }
    if (s.size() > threshold::barrier_tree_ranks) return barrier_tree(s);
    barrier_dissemination(s);
}

int no_checks() {
    return MPI_SUCCESS;
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Barrier(MPI_Comm comm) noexcept {
    return blocking_or(
        "MPI_Barrier", comm, no_checks, [&] { return node::barrier(comm); }, build_barrier);
}
FTMPI_PMPI(Barrier)

extern "C" int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request) noexcept {
    return nonblocking("MPI_Ibarrier", comm, request, no_checks, build_barrier);
}
FTMPI_PMPI(Ibarrier)
