// The pieces of Rabenseifner's algorithms (allreduce, reduce-scatter) on
// any number of ranks p = 2^m + rem:
//
//  * fold_in: of ranks 0..2rem-1, each even rank hands its whole vector to
//    the odd rank above it, which combines, and sits out the middle phase;
//    the 2^m remaining ranks are renumbered 0..2^m-1 in order ("new ranks").
//  * halving_reduce_scatter: in m rounds of partner = new rank XOR 2^k
//    (k from m-1 down to 0) each rank sends the half of its current block
//    range it does not keep and combines the partner's copy of the half it
//    keeps; afterwards new rank i holds block i fully combined. Each rank
//    sends (1 - 1/2^m) of the vector in m rounds.
//  * doubling_allgather: the reverse, k from 0 up: blocks are exchanged with
//    the partner until every new rank holds all of them.
//
// Blocks are combined in partner order, not rank order: commutative ops only.
// Block i of the middle phase is the element range [displs[i], displs[i] +
// counts[i]), ranges in increasing order and adjacent.
#pragma once

#include "schedule.hpp"

#include <vector>

namespace ftmpi::coll {

struct Fold {
    int pow2 = 1;      // 2^m, the ranks of the middle phase
    int rem = 0;       // p - 2^m
    int newrank = -1;  // this rank's number in the middle phase, -1 = sits out
    // The view rank of new rank i.
    int peer(int i) const { return i < rem ? 2 * i + 1 : i + rem; }
};

// Schedules the fold of `count` elements at acc (incoming: scratch of the
// same size) and returns this rank's place in the middle phase.
Fold fold_in(Schedule &s, char *acc, char *incoming, int count, MPI_Datatype type, MPI_Op op);

void halving_reduce_scatter(Schedule &s, const Fold &fold, char *acc, char *incoming, const std::vector<int> &displs,
                            const std::vector<int> &counts, MPI_Datatype type, MPI_Op op);

void doubling_allgather(Schedule &s, const Fold &fold, char *acc, const std::vector<int> &displs,
                        const std::vector<int> &counts, MPI_Datatype type);

}  // namespace ftmpi::coll
