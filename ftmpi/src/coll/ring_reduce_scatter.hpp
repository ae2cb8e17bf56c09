// The reduce-scatter half of the ring algorithms: `acc` holds this rank's
// full vector, cut into p blocks (displs/counts in elements). In p-1 steps
// each rank passes a block to rank+1 and folds the block from rank-1 into its
// own; afterwards rank r holds block (r + shift) mod p fully reduced. Each
// link carries (p-1)/p of the vector once: bandwidth-optimal, latency p-1
// steps. Blocks are combined in ring order, so only for commutative ops.
#pragma once

#include "schedule.hpp"

#include <vector>

namespace ftmpi::coll {

void ring_reduce_scatter(Schedule &s, char *acc, const std::vector<int> &displs, const std::vector<int> &counts,
                         MPI_Datatype type, MPI_Op op, int shift);

// Blocks of `count` elements cut as evenly as possible into p parts.
void even_blocks(int count, int p, std::vector<int> &displs, std::vector<int> &counts);

}  // namespace ftmpi::coll
