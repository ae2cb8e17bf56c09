// A communicator's agreement board: the one place where its
// agreement messages arrive (one ANY_SOURCE receive on a fault-tolerance
// tag, posted while some instance is active), are handed to the instance
// they belong to (or kept for an instance not started here yet, or answered
// for one already forgotten), and where the instances' messages leave.
//
// Everything runs from generalized requests' advance functions, which must
// not block, so the board's lock is only ever tried: an advance that finds
// it held (by another thread, or by this thread further up the stack, since
// testing a request can advance other requests) simply tries again later.
#pragma once

#include "agreement_machine.hpp"

#include "mpi.h"

#include <memory>

namespace ftmpi::ulfm {

class Board;

// The board of comm (made on first use, kept by context id).
std::shared_ptr<Board> board_of(MPI_Comm comm);

// Starts instance `instance` of comm with this process's contribution;
// the outcome fills in when this process decides.
std::shared_ptr<Outcome> start_instance(const std::shared_ptr<Board> &, MPI_Comm comm, uint32_t instance,
                                        const wire::Value &contribution);

// Moves the board's instances on if its lock is free.
void try_advance(const std::shared_ptr<Board> &);
// Whether the board's own request is alive: it runs the board's work in
// every pass of the engine's advances, ahead of any request started after
// it, so an instance's request need not run it again.
bool driven(const std::shared_ptr<Board> &);

}  // namespace ftmpi::ulfm
