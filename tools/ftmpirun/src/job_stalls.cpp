// job_stalls.cpp — which step of a recovery ftmpirun has been waiting on for
// long (job_controller.hpp). A replacement that does not come is the
// survivors' request not arriving, or the replacement not getting through
// MPI_Init; the note says which, with what ftmpirun knows of the failure
// (whether the VM declared the daemon failed, whether rank_lost went out,
// how many notices wait to be published), so a slow or stuck recovery
// explains itself in ftmpirun's output.
#include "job_controller.hpp"

namespace harness::ftmpirun {

namespace {
using Clock = std::chrono::steady_clock;
// A recovery step normally takes well under a second; one that takes this
// long is worth a line.
constexpr std::chrono::seconds kStallNote{15};
constexpr std::chrono::milliseconds kStatusTimeout{1000};

std::string seconds_since(Clock::time_point since, Clock::time_point now) {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now - since).count()) + " s";
}
}  // namespace

void Job::await_respawn(int rank, int incarnation) {
    awaiting_respawn_[rank] = {rank, incarnation, Clock::now()};
}

// What ftmpirun knows of rank's latest process and its recovery.
std::string Job::stall_context(int rank) const {
    const Process *latest = nullptr;
    for (const auto &p : procs_)
        if (p.rank == rank && !p.waiting_standby() && (!latest || p.incarnation > latest->incarnation)) latest = &p;
    std::string s;
    if (latest) {
        const std::string &member = latest->place.member_id;
        s += "daemon " + member + (dead_.count(member) ? " declared failed by the VM" : " not declared failed") +
            "; rank_lost for " + latest->label() + (latest->lost_published ? " queued" : " not sent") +
            (latest->fenced_by >= 0 ? "; fenced at the request of rank " + std::to_string(latest->fenced_by) : "");
    }
    auto plan = plans_.find(rank);
    if (plan != plans_.end() && plan->second.kind == RankPlan::Kind::start_on)
        s += "; planned on daemon " + spec_.hosts[static_cast<std::size_t>(plan->second.host)].member_id;
    const std::size_t backlog = notices_.backlog();
    if (backlog) s += "; " + std::to_string(backlog) + " notice(s) not published yet";
    return s;
}

void Job::note_stalls(Clock::time_point now) {
    if (aborting_) return;  // nothing is recovered any more
    for (auto &[rank, a] : awaiting_respawn_) {
        if (a.noted || now - a.since < kStallNote) continue;
        a.noted = true;
        const std::string label =
            std::to_string(rank) + (a.incarnation ? "." + std::to_string(a.incarnation) : std::string());
        printer_.note("rank " + label + " failed " + seconds_since(a.since, now) +
                      " ago and the survivors have not asked for its replacement yet (" + stall_context(rank) + ")");
    }
    for (auto it = awaiting_init_.begin(); it != awaiting_init_.end();) {
        Awaited &a = it->second;
        const Process &p = procs_.at(it->first);
        if (a.noted || now - a.since < kStallNote || p.done || dead_.count(p.place.member_id)) {
            ++it;
            continue;
        }
        // Briefly: the controller's thread waits for the answer.
        auto st = control_.at(p.place.member_id).status(p.handle, kStatusTimeout);
        if (st && !st->mpi_state.empty()) {  // through MPI_Init: nothing to wait for
            it = awaiting_init_.erase(it);
            continue;
        }
        a.noted = true;
        printer_.note("rank " + p.label() + ", started on daemon " + p.place.member_id + " " +
                      seconds_since(a.since, now) + " ago, " +
                      (st ? "has not finished MPI_Init (it waits there for the survivors' recovered state)"
                          : "cannot be asked how far it got: " + st.error().describe()) +
                      "; " + stall_context(p.rank));
        ++it;
    }
}

}  // namespace harness::ftmpirun
