// The agreement as the MPIX_ bindings use it: a request that
// completes when this process has decided, with a callback that turns the
// decided value into the caller's output (MPIX_Comm_iagree writes *flag
// there and chooses its error code).
#pragma once

#include "../internal/ft.hpp"

#include <functional>

namespace ftmpi::ulfm {

// Called once, from the request's progress (must not block), with the
// agreement's code and the decided value; returns the request's final code.
using OnDecided = std::function<int(int code, const ft::Agreement &decided)>;

// Starts the next agreement on comm (comm->ft.agreements numbers it) with
// this process's contribution. Ranks in the contribution and the decided
// value are participant indexes (participants.hpp): comm ranks on an
// intracommunicator; on an intercommunicator, both groups in one numbering.
int start_agreement(MPI_Comm comm, const ft::Agreement &contribution, OnDecided on_decided, MPI_Request *request);

}  // namespace ftmpi::ulfm
