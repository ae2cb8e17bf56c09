// MPI_Bcast and MPI_Ibcast.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "node.hpp"
#include "select.hpp"
#include "strict.hpp"

namespace ftmpi::coll {

void build_bcast(Schedule &s, void *buf, int count, MPI_Datatype type, int root) {
    MPI_Comm comm = s.comm();
    s.hold(type);
    if (comm->inter) return bcast_inter(s, buf, count, type, root);
    if (count == 0 || s.size() < 2) return;
    root = view_root(s, root);
    const size_t bytes = data_bytes(count, type);
    const auto choice = choose<BcastAlgorithm>(Collective::bcast, s.size(), bytes);
    switch (choice.algorithm) {
    case BcastAlgorithm::binomial: return bcast_binomial(s, buf, count, type, root);
    case BcastAlgorithm::pipeline:
        return bcast_pipeline(s, buf, count, type, root,
                              choice.segment > 0 ? choice.segment : threshold::bcast_segment_bytes);
    case BcastAlgorithm::shm:  // a communicator that cannot use it
    case BcastAlgorithm::automatic: break;
    }
    if (bytes >= threshold::bcast_pipeline_bytes && s.size() > 2)
        return bcast_pipeline(s, buf, count, type, root, threshold::bcast_segment_bytes);
    bcast_binomial(s, buf, count, type, root);
}

namespace {

int check_bcast(MPI_Comm comm, int count, MPI_Datatype type, int root) {
    return first_error(check_data(count, type), check_root(comm, root));
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) noexcept {
    // Strict: retried over the survivors until every survivor has the root's
    // data or the root is known failed everywhere (strict_bcast.cpp).
    if (ftmpi::comm::valid(comm) && !comm->inter && comm->ft.strict.load(std::memory_order_relaxed)) {
        if (int err = check_bcast(comm, count, type, root); err != MPI_SUCCESS)
            return ftmpi::comm::raise(comm, err, "MPI_Bcast");
        return ftmpi::comm::raise(comm, strict_bcast(buf, count, type, root, comm), "MPI_Bcast");
    }
    return blocking_or(
        "MPI_Bcast", comm, [&] { return check_bcast(comm, count, type, root); },
        [&] { return node::bcast(buf, count, type, root, comm); },
        [&](Schedule &s) { build_bcast(s, buf, count, type, root); }, Strict::none);
}
FTMPI_PMPI(Bcast)

extern "C" int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                          MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Ibcast", comm, request, [&] { return check_bcast(comm, count, type, root); },
        [&](Schedule &s) { build_bcast(s, buf, count, type, root); });
}
FTMPI_PMPI(Ibcast)
