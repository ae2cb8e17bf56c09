// failure_policy.hpp — what a job does when one of its processes ends, and the
// status and summary ftmpirun ends with. The one place that decides
// (ftmpi/FT_CONTRACTS.md, "Launch options and environment"):
//
// * comm mode abort (no fault tolerance): any rank failure (non-zero exit, killed by
//   a signal, lost with its daemon) aborts the whole job.
// * every other mode: a rank killed by a signal or lost with its daemon is a
//   failure the survivors handle (FT-MPI/ULFM), so the job goes on; a rank that
//   *exits* non-zero by itself (MPI_Abort, a fatal error handler) still aborts
//   the job, because that is what the program asked for.
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
    int incarnation = 0;           // 0 for the original process, k for its k-th replacement
    std::int32_t exit_code = 0;    // -1 when killed by a signal
    std::int32_t signal = 0;
    bool lost = false;             // its daemon failed or could not be asked
    std::string why;               // for lost ranks

    bool failed() const { return lost || signal != 0 || exit_code != 0; }
    // Killed from outside (a signal, or its host gone) rather than ending by itself.
    bool killed() const { return lost || signal != 0; }
    // The status ftmpirun exits with for it: the exit code, 128+signal, or 1
    // when the rank was lost with its daemon.
    int shell_status() const { return lost ? 1 : signal ? 128 + signal : exit_code; }
    // "rank 2 was killed by SIGKILL", "rank 1.1 (daemon X) exited with status
    // 3", … (where, when given, follows the rank).
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

    // 0 when every rank's last process that was not killed/lost exited 0 and at
    // least one rank finished; the first aborting exit's status when the job
    // was aborted; the first failure's status when no rank finished.
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
    std::vector<RankExit> failures_;          // in the order seen
    std::optional<RankExit> aborted_by_;      // the exit that aborted the job
    std::map<int, RankExit> last_;            // rank → its latest incarnation's end
    std::map<int, int> replacements_;         // rank → replacements started
};

// "SIGKILL" (or "signal N" for one without a name).
std::string signal_name(int sig);

} // namespace harness::ftmpirun
