// The collective recovery point of FT-MPI's communicator
// modes (ftmpi/FT_CONTRACTS.md "Recovery", RECOVERY.md): every
// communicator constructor calls ft::recover_if_needed first.
//
// In BLANK/SHRINK/REBUILD(_APPEND) mode a constructor starts with an
// agreement on the failed members, so every live member decides the same
// thing even when the news of a failure reached some of them late: with no
// failure the constructor goes on as usual; otherwise all of them recover
// comm in place (flush, purge, new shape) and the constructor then builds
// its result from the recovered shape (MPI_Comm_dup of a recovered comm is
// the paper's "new communicator with the recovered shape").
#include "recovery.hpp"

#include "../../coll/node.hpp"
#include "../../coll/tags.hpp"
#include "../../internal/cominfo.hpp"
#include "../../internal/ft.hpp"
#include "../../runtime/log.hpp"
#include "../settings.hpp"

#include <algorithm>
#include <string>

namespace ftmpi::ft {
namespace {
using namespace recovery;

// Failed members (comm ranks) this process knows of: failed processes, and
// ranks replaced in a round after comm was made.
std::vector<int> known_failed(MPI_Comm comm) {
    std::vector<int> failed;
    const std::vector<int> &w = comm->group->world;
    for (size_t r = 0; r < w.size(); ++r)
        if (w[r] >= 0 && (member_failed(comm, w[r]) || p2p::is_failed(w[r]))) failed.push_back(static_cast<int>(r));
    return failed;
}

// "1 3" for log lines.
std::string ranks_text(const std::vector<int> &ranks) {
    std::string s;
    for (int r : ranks) s += (s.empty() ? "" : " ") + std::to_string(r);
    return s.empty() ? "none" : s;
}

// Steps 2–4 with the agreed failed set: flush, purge, barrier, new shape.
int recover_with(MPI_Comm comm, const std::vector<int> &failed) {
    const int mode = comm->ft.comm_mode.load();
    comm->ft.state.store(FTMPI_COMM_RECOVER);
    cominfo::recovery_started(comm, comm_mode_name(mode));
    // Flush: after it every message a survivor sent on comm before the
    // recovery is here; purge then drops the failed processes' messages and
    // the strays of interrupted collectives. The second flush is a barrier:
    // nobody sends on comm's collective channel again before every survivor
    // purged, so the purge cannot eat the next operation's messages.
    const std::vector<int> live = live_worlds(comm, failed);
    log::info("recovery of context %u: failed ranks %s agreed; flushing with world ranks %s", comm->context,
              ranks_text(failed).c_str(), ranks_text(live).c_str());
    p2p::flush(live, comm->context);
    p2p::purge(comm->context);
    p2p::flush(live, comm->context);
    log::info("recovery of context %u: flushed", comm->context);

    const bool rebuild = mode == FTMPI_COMM_MODE_REBUILD || mode == FTMPI_COMM_MODE_REBUILD_APPEND;
    if (rebuild && comm == MPI_COMM_WORLD) {
        Rebuilt r;
        int err = rebuild_world(failed, mode, &r);
        if (err != MPI_SUCCESS) {
            comm->ft.state.store(FTMPI_COMM_FAILED);
            cominfo::recovery_ended(comm, comm_mode_name(mode), MPI_COMM_NULL, err);
            return err;
        }
        install_group(comm, std::move(r.world));
        comm->ft.round = r.round;
        send_state(r);
    } else {
        // REBUILD on another communicator cannot start processes into it:
        // it keeps its extent with gaps (as BLANK); REBUILD_APPEND shrinks.
        install_group(comm, shape_after(comm, failed, mode));
    }
    next_shadow(comm, shadow_epoch(comm) + 1);
    // Survivors may have run different numbers of collectives on comm
    // before the failure showed (one that did not need the failed process
    // succeeded here, failed there): the collective tag sequence restarts.
    coll::reset_tags(comm);
    coll::node::forget(comm);
    comm->ft.recovered_at = failure_count();
    comm->ft.state.store(FTMPI_COMM_RECOVERED);
    cominfo::recovery_ended(comm, comm_mode_name(mode), comm, MPI_SUCCESS);
    return MPI_SUCCESS;
}
}  // namespace

// Returns false when the constructor should go on: nothing failed, or comm
// was recovered in place (the constructor then builds *newcomm from the
// recovered shape). True with *err when the recovery itself failed.
bool recover_if_needed(MPI_Comm comm, MPI_Comm *newcomm, int *err) {
    (void)newcomm;
    if (comm == MPI_COMM_NULL || comm->inter || !recovering_mode(comm->ft.comm_mode.load())) return false;
    // A replacement's first constructor on the world it just installed
    // meets the survivors' constructor right after their recovery.
    if (comm == MPI_COMM_WORLD && take_joined_world_pass()) return false;
    const bool rebuild_world_comm = comm == MPI_COMM_WORLD &&
        (comm->ft.comm_mode.load() == FTMPI_COMM_MODE_REBUILD ||
         comm->ft.comm_mode.load() == FTMPI_COMM_MODE_REBUILD_APPEND);
    // Each pass either finds nothing (done) or removes at least one failed
    // member, so the loop ends; a failure during a pass shows up in the
    // next agreement and is recovered too (the recovery restarts).
    for (int pass = 0; pass <= comm->size + 1; ++pass) {
        Agreement a;
        a.failed = known_failed(comm);
        // Every constructor agrees; one that knows of a failure is a recovery
        // starting, and says so (a recovery that hangs then shows where).
        if (!a.failed.empty())
            log::info("recovery of context %u: agreeing on the failed ranks (this process knows of %s)", comm->context,
                      ranks_text(a.failed).c_str());
        int code = agree(agreement_comm(comm), a);
        if (code != MPI_SUCCESS) continue;  // a failure during the agreement: agree again
        if (a.failed.empty()) return false;
        adopt_agreed_failures(comm, a.failed);
        code = recover_with(comm, a.failed);
        if (code != MPI_SUCCESS) {
            *err = code;
            return true;
        }
        // After a rebuild the replacements are members: they take part in
        // the constructor, not in another agreement of ours.
        if (rebuild_world_comm) return false;
    }
    comm->ft.state.store(FTMPI_COMM_FAILED);
    cominfo::changed();
    *err = MPIX_ERR_PROC_FAILED;
    return true;
}

namespace recovery {
bool recover_if_failed_here(MPI_Comm comm, int *err) {
    if (comm == MPI_COMM_NULL || comm->inter || !recovering_mode(comm->ft.comm_mode.load())) return false;
    if (known_failed(comm).empty()) return false;
    return recover_if_needed(comm, nullptr, err);
}
}  // namespace recovery

}  // namespace ftmpi::ft
