// Who takes part in a communicator's agreements and how to reach each of
// them. On an intracommunicator: its members, in rank order, reached
// through it. On an intercommunicator: both groups, the one whose first
// member comes first in p2p::process_before's order (the lower world rank
// within a job; the same order on both sides, also of two jobs),
// this side's members reached through the private local communicator and
// the other side's through the intercommunicator itself. Agreements then run
// over both groups at once, which is what MPIX_Comm_agree and
// MPIX_Comm_shrink on an intercommunicator need.
#pragma once

#include "../internal/comm.hpp"

#include <vector>

namespace ftmpi::ulfm {

struct Participants {
    std::vector<int> worlds;  // participant -> world rank (-1: a BLANK gap)
    int me = 0;               // this process's participant index
    int local_offset = 0;     // first participant of this side
    int remote_offset = 0;    // first participant of the other side (intercommunicators)
    int local_size = 0;
    bool inter = false;
};

Participants participants_of(MPI_Comm comm);
// How many there are: comm's size, or both groups' sizes together.
inline int participant_count(MPI_Comm comm) {
    return static_cast<int>(comm->group->world.size() + (comm->inter ? comm->remote->world.size() : 0));
}

// The communicator and rank through which participant `p` is reached.
struct Route {
    MPI_Comm via = MPI_COMM_NULL;
    int rank = -1;
};
Route route_to(MPI_Comm comm, const Participants &parts, int p);

}  // namespace ftmpi::ulfm
