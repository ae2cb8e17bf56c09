// One tag per collective call: the communicator's collective sequence number.
// Members call collectives in the same order (MPI-3.1 §5.12), so they draw the
// same number; overlapping non-blocking collectives get different tags and so
// never match each other's messages. Counters are keyed by context id, which
// is never reused, so a freed communicator's count cannot leak into a new one.
#pragma once

#include "mpi.h"

#include <cstdint>

namespace ftmpi::coll {

int next_tag(MPI_Comm comm);
// Restarts comm's tag sequence (FT recovery in place: every survivor and a replacement start again at 0).
void reset_tags(uint32_t context);

}  // namespace ftmpi::coll
