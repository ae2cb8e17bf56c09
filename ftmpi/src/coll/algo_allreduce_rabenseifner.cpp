// Rabenseifner's allreduce: a reduce-scatter by recursive halving leaves
// each rank one fully combined block, an allgather by recursive doubling
// hands every block to every rank. Each rank sends about 2(p-1)/p of the
// message (as the ring does) in 2 log2 p rounds (the ring takes 2(p-1)):
// the choice for medium and long messages at higher rank counts. A
// non-power-of-two p folds its first 2rem ranks in pairs before and hands
// the result back after (recursive_halving.hpp). Commutative ops only.
#include "algorithms.hpp"
#include "recursive_halving.hpp"
#include "ring_reduce_scatter.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void allreduce_rabenseifner(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op) {
    const int r = s.rank();
    if (sendbuf != MPI_IN_PLACE) copy_step(s, sendbuf, count, type, recvbuf, count, type);
    if (s.size() < 2) return;
    char *acc = static_cast<char *>(recvbuf);
    char *incoming = s.scratch_for(count, type);
    const Fold fold = fold_in(s, acc, incoming, count, type, op);
    if (fold.newrank >= 0) {
        std::vector<int> displs, counts;
        even_blocks(count, fold.pow2, displs, counts);
        halving_reduce_scatter(s, fold, acc, incoming, displs, counts, type, op);
        doubling_allgather(s, fold, acc, displs, counts, type);
    }
    // The folded-out even ranks get the result from their odd neighbour.
    if (r < 2 * fold.rem) {
        if (r % 2 == 0)
            s.recv(acc, count, type, r + 1);
        else
            s.send(acc, count, type, r - 1);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
