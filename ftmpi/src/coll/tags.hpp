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
// The tag of a persistent collective, drawn at its init from a sequence of
// their own: persistent collectives match in the order of their init calls,
// not of their starts (MPI-4.0 §6.13).
int next_persistent_tag(MPI_Comm comm);
// While one is alive on this thread, the next next_tag call returns `tag`
// instead of drawing a number: every start of a persistent collective runs
// under the tag drawn at its init.
class PinnedTag {
public:
    explicit PinnedTag(int tag);
    ~PinnedTag();
    PinnedTag(const PinnedTag &) = delete;
    PinnedTag &operator=(const PinnedTag &) = delete;
};
// Restarts comm's tag sequence (FT recovery in place: every survivor and a replacement start again at 0).
void reset_tags(MPI_Comm comm);

}  // namespace ftmpi::coll
