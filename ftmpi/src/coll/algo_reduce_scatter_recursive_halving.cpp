// Reduce-scatter by recursive halving (Rabenseifner): in log2 p rounds each
// rank sends half of what it still holds to a partner at halving distance
// and combines the half it keeps, so each rank sends about (p-1)/p of the
// vector in log2 p rounds (the ring needs p-1). A non-power-of-two p folds
// its first 2rem ranks in pairs first (recursive_halving.hpp): the odd rank
// of a pair then works for both, its block in the middle phase being the
// pair's two blocks, and finally hands the even rank its block. Commutative
// ops only, no gaps (the blocks are the live ranks').
#include "algorithms.hpp"
#include "recursive_halving.hpp"
#include "steps.hpp"

#include <vector>

namespace ftmpi::coll {

void reduce_scatter_recursive_halving(Schedule &s, const void *sendbuf, void *recvbuf, const int recvcounts[],
                                      MPI_Datatype type, MPI_Op op) {
    const int p = s.size(), r = s.rank();
    std::vector<int> displs(static_cast<size_t>(p));
    int total = 0;
    for (int i = 0; i < p; ++i) {
        displs[static_cast<size_t>(i)] = total;
        total += recvcounts[i];
    }
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    char *acc = s.scratch_for(total, type);
    char *incoming = s.scratch_for(total, type);
    copy_step(s, input, total, type, acc, total, type);
    const Fold fold = fold_in(s, acc, incoming, total, type, op);
    if (fold.newrank >= 0) {
        // New rank i stands for ranks 2i and 2i+1 when folded, else for i + rem.
        std::vector<int> new_displs(static_cast<size_t>(fold.pow2)), new_counts(static_cast<size_t>(fold.pow2));
        for (int i = 0; i < fold.pow2; ++i) {
            const int first = i < fold.rem ? 2 * i : i + fold.rem;
            const size_t k = static_cast<size_t>(i);
            new_displs[k] = displs[static_cast<size_t>(first)];
            new_counts[k] = recvcounts[first] + (i < fold.rem ? recvcounts[first + 1] : 0);
        }
        halving_reduce_scatter(s, fold, acc, incoming, new_displs, new_counts, type, op);
    }
    if (r < 2 * fold.rem && r % 2 == 0) {
        s.recv(recvbuf, recvcounts[r], type, r + 1);
        s.end_round();
        return;
    }
    if (r < 2 * fold.rem) {
        s.send(element(acc, displs[static_cast<size_t>(r - 1)], type), recvcounts[r - 1], type, r - 1);
        s.end_round();
    }
    copy_step(s, element(acc, displs[static_cast<size_t>(r)], type), recvcounts[r], type, recvbuf, recvcounts[r], type);
}

}  // namespace ftmpi::coll
