// A communicator's failed members as this process knows them,
// in the order the failures were learned (the failure list of src/ft), and
// which of them the program acknowledged (MPIX_Comm_failure_ack).
#pragma once

#include "../internal/comm.hpp"

#include <cstdint>
#include <vector>

namespace ftmpi::ulfm {

struct FailedMember {
    int rank = -1;       // rank in the communicator (local group)
    int world = -1;      // world rank
    int64_t index = -1;  // position in the failure list (-1: an older incarnation was replaced)
};

// Failed members of comm's local group, ordered by failure-list index.
std::vector<FailedMember> failed_members(MPI_Comm comm);
// The failed among the participants of comm's agreements (participants.hpp:
// comm's members, or both groups of an intercommunicator), `rank` being the
// participant index, in participant order.
std::vector<FailedMember> failed_participants(MPI_Comm comm);

// Whether the program acknowledged m's failure on comm: its failure-list
// index is below comm->ft.acked_upto.
bool acknowledged(MPI_Comm comm, const FailedMember &m);

// A group (world ranks) of these members, for get_failed/get_acked.
MPI_Group group_of(const std::vector<FailedMember> &members);

}  // namespace ftmpi::ulfm
