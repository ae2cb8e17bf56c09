// Owner: coll (mpicoll). MPI_Bcast and MPI_Ibcast.
#include "algorithms.hpp"
#include "api_common.hpp"
#include "buffers.hpp"
#include "select.hpp"

namespace ftmpi::coll {
namespace {

int check_bcast(MPI_Comm comm, int count, MPI_Datatype type, int root) {
    return first_error(check_data(count, type), check_root(comm, root));
}

void build_bcast(Schedule &s, void *buf, int count, MPI_Datatype type, int root) {
    MPI_Comm comm = s.comm();
    s.hold(type);
    if (comm->inter) return bcast_inter(s, buf, count, type, root);
    if (count == 0 || comm->size < 2) return;
    const auto forced = forced_algorithm("BCAST");
    if (forced == "binomial") return bcast_binomial(s, buf, count, type, root);
    if (forced == "pipeline") return bcast_pipeline(s, buf, count, type, root, threshold::bcast_segment_bytes);
    if (data_bytes(count, type) >= threshold::bcast_pipeline_bytes && comm->size > 2)
        return bcast_pipeline(s, buf, count, type, root, threshold::bcast_segment_bytes);
    bcast_binomial(s, buf, count, type, root);
}

}  // namespace
}  // namespace ftmpi::coll

using namespace ftmpi::coll;

extern "C" int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) noexcept {
    return blocking(
        "MPI_Bcast", comm, [&] { return check_bcast(comm, count, type, root); },
        [&](Schedule &s) { build_bcast(s, buf, count, type, root); });
}
FTMPI_PMPI(Bcast)

extern "C" int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                          MPI_Request *request) noexcept {
    return nonblocking(
        "MPI_Ibcast", comm, request, [&] { return check_bcast(comm, count, type, root); },
        [&](Schedule &s) { build_bcast(s, buf, count, type, root); });
}
FTMPI_PMPI(Ibcast)
