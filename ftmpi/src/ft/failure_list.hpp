// What the ft files share about the failure list (the
// public side is in internal/ft.hpp): which failures concern a given
// communicator, and the readable reason a failure will be recorded with.
#pragma once

#include "internal/comm.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ftmpi::ft {

// The failures of comm's members with a list index >= `from`, in local
// order: `ranks` the member's rank in comm (one entry per failure event),
// `per_rank` how many per rank of comm (extent = group size), `whys` the
// failures' readable reasons ("rank 2 (world 2) killed by …").
struct CommFailures {
    std::vector<int> ranks;
    std::vector<int> per_rank;
    std::vector<std::string> whys;
    uint64_t first_index = UINT64_MAX;  // list index of the first of them
};
CommFailures comm_failures(MPI_Comm comm, uint64_t from);

// True when comm has a failed member with a list index >= from (cheap when
// nothing failed at all).
bool has_failure_since(MPI_Comm comm, uint64_t from);

// The notifier learned why `world` failed before asking p2p to declare it:
// on_failure records this reason instead of the transport's.
void remember_why(int world, const std::string &why);

// Called once by init: sizes the incarnation table, starts the round.
void reset_failure_list(int world_size, int my_incarnation, int round);

}  // namespace ftmpi::ft

namespace ftmpi::ft {
// Appends the failure of `world`'s current incarnation unless it is already
// in the list (true when appended; *recorded gets the entry as stored).
bool record_failure(int world, const std::string &why, Failure *recorded);

// p2p completes the operations that need a failed process before it
// reports the failure (ft::on_failure, from whichever thread runs its
// report loop), so a program can see MPIX_ERR_PROC_FAILED a moment before
// the list has the failure. The user-facing queries (attributes, states,
// the ABORT hook) call this first: it records every process p2p already
// declared failed. Takes p2p's lock: never call it from a p2p path.
void sync_with_p2p();
}  // namespace ftmpi::ft
