// failure_policy.hpp — what a job does when one of its ranks ends.
//
// The one place that decides. FT-MPI part 1: a rank that fails (non-zero
// exit, killed by a signal, or lost with its daemon) aborts the whole job,
// which is also what MPI_Abort needs. Part 2 (fault tolerance) keeps the job
// going for communicators that asked for it, by changing only this function.
#pragma once

#include <cstdint>
#include <string>

namespace harness::ftmpirun {

struct RankExit {
    int rank = 0;
    std::int32_t exit_code = 0; // -1 when killed by a signal
    std::int32_t signal = 0;
    bool lost = false;          // its daemon could not be asked (failed, unreachable)
    std::string why;            // for lost ranks

    bool failed() const { return lost || signal != 0 || exit_code != 0; }
    // The status ftmpirun exits with for it: the exit code, 128+signal, or 1
    // when the rank was lost with its daemon.
    int shell_status() const { return lost ? 1 : signal ? 128 + signal : exit_code; }
};

enum class OnRankExit { keep_running, abort_job };

inline OnRankExit decide(const RankExit &exit) { return exit.failed() ? OnRankExit::abort_job : OnRankExit::keep_running; }

} // namespace harness::ftmpirun
