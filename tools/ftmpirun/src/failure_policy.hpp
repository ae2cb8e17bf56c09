// failure_policy.hpp — what a job does when one of its processes ends, and the
// status and summary ftmpirun ends with. The one place that decides
// (ftmpi/FT_CONTRACTS.md, "Launch options and environment"):
//
// * comm mode abort (no fault tolerance): any rank failure (a non-zero exit, an
//   exit without MPI_Finalize whatever its status, killed by a signal, lost
//   with its daemon) aborts the whole job.
// * every other mode: a rank killed by a signal, lost with its daemon, or
//   ending by exit() after MPI_Init without MPI_Finalize (any status, 0
//   included) is a process failure the survivors handle (FT-MPI/ULFM), so
//   the job goes on; a rank that calls MPI_Abort (or a fatal error handler
//   does) still aborts the job, because that is what the program asked for,
//   and so does a non-zero exit of a program that never called MPI_Init.
// * an exit after MPI_Finalize is a normal end; its status still counts.
//
// Whether a rank initialized, finalized or aborted MPI comes from its
// daemon (spawn_notify's lifecycle word, `mpi_state`).
//
// Pure (no VM, no threads), so tests check it directly.
#pragma once

#include "ft_options.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace harness::ftmpirun {

struct RankExit {
    int rank = 0;
    int incarnation = 0;         // 0 for the original process, k for its k-th replacement
    std::int32_t exit_code = 0;  // -1 when killed by a signal
    std::int32_t signal = 0;
    bool lost = false;  // its daemon failed or could not be asked
    std::string why;    // for lost ranks
    // The rank's last MPI lifecycle word from its daemon: "" (never called
    // MPI_Init, or a daemon that does not say), "initialized", "finalized",
    // "aborted".
    std::string mpi_state;

    // Killed from outside (a signal, or its host gone) rather than ending by itself.
    bool killed() const { return lost || signal != 0; }
    // Ended by itself after MPI_Init without MPI_Finalize (exit() with any status).
    bool unfinalized() const { return !killed() && mpi_state == "initialized"; }
    // Called MPI_Abort, or an error handler aborted.
    bool aborted() const { return !killed() && mpi_state == "aborted"; }
    bool failed() const {
        if (killed() || unfinalized() || aborted()) return true;
        return mpi_state.empty() && exit_code != 0;
    }
    // The status ftmpirun exits with for it: the exit code (1 for an exit 0
    // without MPI_Finalize), 128+signal, or 1 when lost with its daemon.
    int shell_status() const {
        if (lost) return 1;
        if (signal) return 128 + signal;
        return unfinalized() && exit_code == 0 ? 1 : exit_code;
    }
    // "rank 2 was killed by SIGKILL", "rank 1.1 (daemon X) exited with status
    // 3 before MPI_Finalize", … (where, when given, follows the rank).
    std::string describe(const std::string &where = {}) const;
};

enum class OnRankExit { keep_running, abort_job };

OnRankExit decide(const RankExit &exit, CommMode mode);

// Collects every process end of a job (replacements included) and gives the
// job's status and a one-line summary.
class JobOutcome {
public:
    JobOutcome(std::int64_t job, int np, CommMode mode) : job_(job), np_(np), mode_(mode) {}

    // Records one process end; returns what the job does about it.
    OnRankExit record(const RankExit &exit);
    void replacement_started(int rank) { ++replacements_[rank]; }
    void processes_added(int n) { np_ += n; }  // MPI_Comm_spawn's

    // The first aborting exit's status when the job was aborted; else the
    // first non-zero status a rank exited with by itself (before or after
    // MPI_Finalize: scripts see it); else 0 when at least one rank finished
    // (killed and lost ranks do not count); else the first failure's status.
    int status() const;
    // Empty when nothing failed; else what happened, e.g. "job 7: rank 2 was
    // killed by SIGKILL; the job continued (comm mode shrink) and finished with
    // 3 of 4 ranks".
    std::string summary() const;
    // Ranks whose last process ended with status 0.
    int finished_ranks() const;

private:
    std::int64_t job_;
    int np_;
    CommMode mode_;
    std::vector<RankExit> failures_;         // in the order seen
    std::optional<RankExit> aborted_by_;     // the exit that aborted the job
    std::optional<RankExit> first_nonzero_;  // the first rank to exit by itself with a status
    std::map<int, RankExit> last_;           // rank → its latest incarnation's end
    std::map<int, int> replacements_;        // rank → replacements started
};

// "SIGKILL" (or "signal N" for one without a name).
std::string signal_name(int sig);

}  // namespace harness::ftmpirun
