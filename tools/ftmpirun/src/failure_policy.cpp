#include "failure_policy.hpp"

#include <cstring>

namespace harness::ftmpirun {

std::string signal_name(int sig) {
    const char *abbrev = sigabbrev_np(sig);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::string RankExit::describe(const std::string &where) const {
    std::string who = "rank " + std::to_string(rank) + (incarnation ? "." + std::to_string(incarnation) : "");
    if (!where.empty()) who += " (" + where + ")";
    if (lost) return who + " was lost: " + why;
    if (signal) return who + " was killed by " + signal_name(signal);
    if (aborted()) return who + " called MPI_Abort (status " + std::to_string(exit_code) + ")";
    std::string s = who + " exited with status " + std::to_string(exit_code);
    if (unfinalized()) s += " before MPI_Finalize";
    return s;
}

OnRankExit decide(const RankExit &exit, CommMode mode) {
    if (!exit.failed()) return OnRankExit::keep_running;
    if (mode == CommMode::abort) return OnRankExit::abort_job;
    // Fault-tolerant modes: the survivors handle a killed or lost rank and
    // one that ended without MPI_Finalize; MPI_Abort, or a non-zero exit of
    // a program that never initialized MPI, is the program's own decision
    // to stop.
    return exit.killed() || exit.unfinalized() ? OnRankExit::keep_running : OnRankExit::abort_job;
}

OnRankExit JobOutcome::record(const RankExit &exit) {
    auto &last = last_[exit.rank];
    if (exit.incarnation >= last.incarnation) last = exit;
    if (exit.failed()) failures_.push_back(exit);
    if (!exit.killed() && exit.exit_code != 0 && !first_nonzero_) first_nonzero_ = exit;
    OnRankExit what = decide(exit, mode_);
    if (what == OnRankExit::abort_job && !aborted_by_) aborted_by_ = exit;
    return what;
}

int JobOutcome::finished_ranks() const {
    int n = 0;
    for (const auto &[rank, exit] : last_)
        if (!exit.failed()) ++n;
    return n;
}

int JobOutcome::status() const {
    if (aborted_by_) return aborted_by_->shell_status();
    if (first_nonzero_) return first_nonzero_->exit_code;
    if (failures_.empty()) return 0;
    // Only killed/lost ranks failed; the job succeeded if someone finished it.
    return finished_ranks() > 0 ? 0 : failures_.front().shell_status();
}

std::string JobOutcome::summary() const {
    if (failures_.empty()) return {};
    std::string s = "job " + std::to_string(job_) + ": ";
    if (aborted_by_) {
        s += aborted_by_->describe() + "; the job was aborted (comm mode " + to_string(mode_) + ")";
        return s;
    }
    const std::size_t shown = std::min<std::size_t>(failures_.size(), 4);
    for (std::size_t i = 0; i < shown; ++i) s += (i ? ", " : "") + failures_[i].describe();
    if (failures_.size() > shown) s += " and " + std::to_string(failures_.size() - shown) + " more";
    int started = 0;
    for (const auto &[rank, n] : replacements_) started += n;
    int finished = finished_ranks();
    if (finished == 0) return s + "; no rank finished (comm mode " + to_string(mode_) + ")";
    s += "; the job continued (comm mode " + to_string(mode_) + ")";
    if (started) s += ", " + std::to_string(started) + (started == 1 ? " replacement" : " replacements") + " started,";
    s += " and finished with " + std::to_string(finished) + " of " + std::to_string(np_) + " ranks";
    return s;
}

}  // namespace harness::ftmpirun
