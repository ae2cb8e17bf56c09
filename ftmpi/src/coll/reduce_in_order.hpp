// Schedules the combination of n contributions lying one after another in
// `blocks` (block i is contribution of rank i) into `result`, in rank order:
// result = b0 op b1 op ... op b(n-1). Used where a rank gathered every
// contribution itself (intercommunicator reductions).
#pragma once

#include "schedule.hpp"

namespace ftmpi::coll {

void reduce_in_order(Schedule &s, char *blocks, int n, void *result, int count, MPI_Datatype type, MPI_Op op);

}  // namespace ftmpi::coll
