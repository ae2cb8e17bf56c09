// The collective outcome of a collective file operation, and
// MPIX_File_revoke.
//
// A failure can stop a collective at some members and not others (a member
// that needed nothing from the failed process may finish). At the end of
// each collective access every member therefore contributes "did my part
// succeed" to MPIX_Comm_agree on the file's private communicator: the
// agreement (ft::agree, the one behind MPIX_Comm_agree) is fault tolerant
// and gives every live member the same AND and the same set of failed
// members, so all of them return success or all an error
// (MPI_ERR_PROC_FAILED when a member failed — it did not do its part —
// else the local error or MPI_ERR_IO for "another member's part failed"). This is the chapter's
// advice done inside the library; programs may still agree on their own
// communicator before committing a checkpoint (README.md).
//
// A revoke must end a pending operation even at a member whose peers
// stopped calling collectives on the file, so the wait for the agreement
// also watches the revoke mark.
#include "internals.hpp"

#include "../internal/ft.hpp"
#include "../internal/p2p.hpp"
#include "../internal/pmpi.hpp"
#include "../ulfm/pmpix.hpp"

#include <memory>
#include <mutex>

namespace ftmpi::io {
namespace {

// An agreement abandoned because its file was revoked: its flag must outlive
// it, and so must the communicator it runs on (it may still advance).
struct Abandoned {
    MPI_Request request;
    std::unique_ptr<ft::Agreement> vote;
};
std::mutex abandoned_mutex;
std::vector<Abandoned> abandoned;

}  // namespace

int agree_outcome(MPI_File fh, int local) {
    if (!fh->hints.consistent) return local;
    // Once the file is revoked nobody agrees any more: every member's call
    // ends with MPIX_ERR_REVOKED (a member already waiting stops below).
    if (revoked(fh)) return MPIX_ERR_REVOKED;
    auto vote = std::make_unique<ft::Agreement>();
    vote->flag = local == MPI_SUCCESS ? 1u : 0u;
    MPI_Request request = MPI_REQUEST_NULL;
    if (int err = ft::iagree(fh->comm, *vote, &request)) return local != MPI_SUCCESS ? local : err;
    MPI_Status status{};
    if (p2p::wait_unless_revoked(&request, &status, fh->comm) == MPIX_ERR_REVOKED && request != MPI_REQUEST_NULL) {
        std::lock_guard lk(abandoned_mutex);
        abandoned.push_back({request, std::move(vote)});
        fh->abandoned_agreement = true;
        return MPIX_ERR_REVOKED;
    }
    if (local != MPI_SUCCESS) return local;
    if (status.MPI_ERROR != MPI_SUCCESS) return status.MPI_ERROR;
    // A member that failed did not do its part, even if every live member
    // did theirs: the operation did not complete (the agreed failed set is
    // the same at every member, so is this verdict).
    if (!vote->failed.empty()) return MPIX_ERR_PROC_FAILED;
    if (vote->flag == 0) return revoked(fh) ? MPIX_ERR_REVOKED : MPI_ERR_IO;
    return MPI_SUCCESS;
}

int settle(MPI_File fh, int local) {
    return fh->hints.consistent ? agree_outcome(fh, local) : agree_max(fh->comm, local);
}

}  // namespace ftmpi::io

using namespace ftmpi;

extern "C" int MPIX_File_revoke(MPI_File fh) {
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, "MPIX_File_revoke");
    return io::guarded(fh, "MPIX_File_revoke", [&] { return p2p::revoke(fh->comm); });
}
FTMPI_PMPIX(File_revoke)
