// One tag per collective call: the communicator's collective sequence number.
// Members call collectives in the same order (MPI-3.1 §5.12), so they draw the
// same number; overlapping non-blocking collectives get different tags and so
// never match each other's messages. The counter lives in the communicator
// (one atomic increment per call, no lock): a new communicator starts at 0,
// and its context id keeps its messages apart from any earlier one's.
#pragma once

#include "mpi.h"

namespace ftmpi::coll {

int next_tag(MPI_Comm comm);
// Restarts comm's tag sequence (FT recovery in place: every survivor and a replacement start again at 0).
void reset_tags(MPI_Comm comm);

}  // namespace ftmpi::coll
