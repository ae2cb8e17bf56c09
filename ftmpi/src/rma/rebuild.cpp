// FTMPI_Win_rebuild: a window re-made in place over a recovered
// communicator, the way an FT-MPI recovery rebuilds MPI_COMM_WORLD in
// place. The handle, the memory this process exposes (and what it holds),
// the attached regions of a dynamic window, the name, info, attributes and
// error handler stay; the private communicator, the members' sizes and
// displacement units, and every synchronisation state are new. A process
// that has no such window (a REBUILD replacement) joins with the ordinary
// creation call of the same flavor: both run the same collectives
// (duplicate, allgather of the exposure, allreduce of the outcome), so the
// rebuild meets a creation call for call.
#include "direct.hpp"
#include "origin.hpp"
#include "window.hpp"

#include "../comm/objects.hpp"
#include "../internal/comm.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"

namespace ftmpi::rma {
namespace {

// Forgets every epoch and lock of the old private communicator: the
// members they involved may be gone, and none of them can be closed over
// the new one. Called with the handler stopped.
void drop_synchronisation(MPI_Win win) {
    std::vector<MPI_Request> completes;
    {
        std::lock_guard lk(win->origin_mutex);
        win->epoch = Epoch::none;
        win->locked.clear();
        win->start_group.clear();
        win->post_group.clear();
        win->exposed = false;
        win->next_tag = 0;
        completes.swap(win->completes);
    }
    for (MPI_Request &r : completes) {
        if (r == MPI_REQUEST_NULL) continue;
        PMPI_Cancel(&r);  // a complete message that will never come (its origin failed)
        PMPI_Request_free(&r);
    }
    std::lock_guard lk(win->target_mutex);
    win->exclusive_holder = -1;
    win->shared_holders.clear();
    win->lock_queue.clear();
}

int rebuild(MPI_Win win, MPI_Comm comm) {
    // Operations this process started are finished first (those to failed
    // targets end with the failure; their epoch is abandoned, so the code is
    // not reported). Everybody's old handler keeps serving meanwhile: it
    // stops only after the allgather below, which no member passes before
    // every member has finished its own operations.
    complete_operations(win, -1);
    MPI_Comm fresh = MPI_COMM_NULL;
    if (int e = PMPI_Comm_dup(comm, &fresh)) return e;  // in FT-MPI modes, the recovery point
    PMPI_Comm_set_errhandler(fresh, MPI_ERRORS_RETURN);
    std::vector<MPI_Aint> sizes;
    std::vector<int> units;
    std::vector<SegmentName> segments;
    const MPI_Aint bytes = win->flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0 : win->bytes;
    const int code = gather_exposure(fresh, bytes, win->disp_unit, win->own_segment.name, &sizes, &units, &segments);
    // The same outcome at every member, as creation's: a new member whose
    // creation failed frees its window, so the survivors keep theirs as it
    // was and the program may try again.
    int worst = code;
    if (int e = PMPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, fresh)) worst = e;
    if (worst != MPI_SUCCESS) {
        PMPI_Comm_free(&fresh);
        return worst;
    }
    stop_handler(win);
    drop_synchronisation(win);
    PMPI_Comm_free(&win->comm);
    win->comm = fresh;
    PMPI_Comm_rank(fresh, &win->rank);
    PMPI_Comm_size(fresh, &win->size);
    win->worlds.clear();
    for (int r = 0; r < win->size; ++r) win->worlds.push_back(comm::world_rank_of(fresh, r));
    win->sizes = std::move(sizes);
    win->disp_units = std::move(units);
    // The members' segments over the new numbering: survivors' names were
    // removed after the first creation, so a new member reaches them by
    // messages; the survivors map the new member's segment, which it
    // removes only after this collective's outcome (creation's finish).
    if (win->flavor == MPI_WIN_FLAVOR_ALLOCATE) map_peers(win, segments);
    win->stopping = false;
    return start_handler(win);
}

}  // namespace
}  // namespace ftmpi::rma

using namespace ftmpi;

extern "C" int FTMPI_Win_rebuild(MPI_Win win, MPI_Comm comm) noexcept {
    constexpr const char *fn = "FTMPI_Win_rebuild";
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, fn);
    if (!comm::valid(comm) || comm->inter) return rma::raise(win, MPI_ERR_COMM, fn);
    // A new member cannot map the shared segment the survivors hold.
    if (win->flavor == MPI_WIN_FLAVOR_SHARED) return rma::raise(win, MPI_ERR_RMA_FLAVOR, fn);
    return rma::guarded(win, fn, [&] { return rma::rebuild(win, comm); });
}

// PFTMPI_X is a weak alias of FTMPI_X, as FTMPI_PMPI does for MPI_ names.
extern "C" __typeof__(FTMPI_Win_rebuild) PFTMPI_Win_rebuild __attribute__((weak, alias("FTMPI_Win_rebuild")));
