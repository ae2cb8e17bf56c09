// faults.hpp — what a soak trial injects and how it can end.
//
// One fault per trial; outcomes are exclusive, the worst one found wins
// (WRONG-ANSWER, then CRASH, HANG, ORPHANS, ABORTED). README.md says what
// each means and which outcome each comm mode should give.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace harness::chaos {

enum class Fault {
    rank_kill,      // kill -9 of one rank mid-run
    daemon_kill,    // kill -9 of the hcored that hosts a rank (not ftmpirun's)
    two_kills,      // kill -9 of two ranks, the second up to 300 ms after the first
    rank_stop,      // SIGSTOP of one rank for 0.5–2.5 s, then SIGCONT: a stall
    rank_exit,      // a rank calls exit(1) by itself mid-run
    link_cut,       // a rank's host loses its network link (namespaces only)
    init_kill,      // kill -9 of a rank within 40 ms of its start (during MPI_Init)
    recovery_kill,  // a second kill -9 the moment a survivor reports the first failure
};

enum class Outcome { ok, wrong_answer, hang, crash, aborted, orphans };

inline constexpr Fault kAllFaults[] = {Fault::rank_kill, Fault::daemon_kill, Fault::two_kills, Fault::rank_stop,
                                       Fault::rank_exit, Fault::link_cut,    Fault::init_kill, Fault::recovery_kill};
inline constexpr Outcome kAllOutcomes[] = {Outcome::ok,    Outcome::wrong_answer, Outcome::hang,
                                           Outcome::crash, Outcome::aborted,      Outcome::orphans};

std::string_view name(Fault f);
std::string_view name(Outcome o);
std::optional<Fault> parse_fault(std::string_view text);

// A comma-separated list of fault names ("all": every one); nullopt and
// *bad on an unknown name.
std::optional<std::vector<Fault>> parse_faults(const std::string &list, std::string *bad);

// The outcome a trial of this fault should have in comm mode `mode`:
// OK in the fault-tolerant modes, ABORTED in `abort` (no fault tolerance).
Outcome expected_outcome(Fault f, const std::string &mode);

}  // namespace harness::chaos
