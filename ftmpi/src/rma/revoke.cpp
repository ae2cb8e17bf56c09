// The fault-tolerance chapter's window calls: MPIX_Win_revoke revokes the
// window's private communicator (p2p's revoke flood), which completes every
// pending internal message of the window, at every member, with
// MPIX_ERR_REVOKED, and makes later calls fail at their first check;
// MPIX_Win_get_failed names the members known to have failed.
#include "window.hpp"

#include "../comm/objects.hpp"
#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"
#include "../ulfm/pmpix.hpp"

using namespace ftmpi;

extern "C" int MPIX_Win_revoke(MPI_Win win) {
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, "MPIX_Win_revoke");
    return rma::guarded(win, "MPIX_Win_revoke", [&] { return p2p::revoke(win->comm); });
}
FTMPI_PMPIX(Win_revoke)

extern "C" int MPIX_Win_get_failed(MPI_Win win, MPI_Group *failed_group) {
    if (!rma::valid(win)) return rma::raise(win, MPI_ERR_WIN, "MPIX_Win_get_failed");
    if (failed_group == nullptr) return rma::raise(win, MPI_ERR_ARG, "MPIX_Win_get_failed");
    return rma::guarded(win, "MPIX_Win_get_failed", [&] {
        std::vector<int> failed;
        // A member replaced by REBUILD is no longer failed in p2p, but the
        // window's process there is gone all the same.
        for (int w : win->worlds)
            if (w >= 0 && (p2p::is_failed(w) || ft::member_failed(win->comm, w))) failed.push_back(w);
        *failed_group = comm::make_group(std::move(failed));
        return MPI_SUCCESS;
    });
}
FTMPI_PMPIX(Win_get_failed)
