// See recursive_halving.hpp.
#include "recursive_halving.hpp"

#include "buffers.hpp"
#include "steps.hpp"

namespace ftmpi::coll {
namespace {

// Elements of blocks [first, first + n).
int span(const std::vector<int> &counts, int first, int n) {
    int total = 0;
    for (int i = first; i < first + n; ++i) total += counts[static_cast<size_t>(i)];
    return total;
}

}  // namespace

Fold fold_in(Schedule &s, char *acc, char *incoming, int count, MPI_Datatype type, MPI_Op op) {
    const int p = s.size(), r = s.rank();
    Fold fold;
    while (fold.pow2 * 2 <= p) fold.pow2 *= 2;
    fold.rem = p - fold.pow2;
    if (r >= 2 * fold.rem) {
        fold.newrank = r - fold.rem;
    } else if (r % 2 == 0) {
        s.send(acc, count, type, r + 1);
        s.end_round();
    } else {
        s.recv(incoming, count, type, r - 1);
        reduce_step(s, op, incoming, acc, count, type);  // lower rank's data as the left operand
        s.end_round();
        fold.newrank = r / 2;
    }
    return fold;
}

void halving_reduce_scatter(Schedule &s, const Fold &fold, char *acc, char *incoming, const std::vector<int> &displs,
                            const std::vector<int> &counts, MPI_Datatype type, MPI_Op op) {
    const int me = fold.newrank;
    int low = 0;  // first block of the range this rank still works on
    for (int half = fold.pow2 / 2; half >= 1; half /= 2) {
        const int partner = me ^ half;
        const int keep = (me & half) ? low + half : low;
        const int give = (me & half) ? low : low + half;
        const int keep_count = span(counts, keep, half);
        const MPI_Aint keep_at = displs[static_cast<size_t>(keep)];
        s.send(element(acc, displs[static_cast<size_t>(give)], type), span(counts, give, half), type,
               fold.peer(partner));
        s.recv(element(incoming, keep_at, type), keep_count, type, fold.peer(partner));
        if (keep_count > 0)
            reduce_step(s, op, element(incoming, keep_at, type), element(acc, keep_at, type), keep_count, type);
        s.end_round();
        low = keep;
    }
}

void doubling_allgather(Schedule &s, const Fold &fold, char *acc, const std::vector<int> &displs,
                        const std::vector<int> &counts, MPI_Datatype type) {
    const int me = fold.newrank;
    for (int size = 1; size < fold.pow2; size *= 2) {
        // This rank holds the aligned group of `size` blocks around its own;
        // the partner holds the neighbouring group.
        const int partner = me ^ size;
        const int mine = me & ~(size - 1), theirs = partner & ~(size - 1);
        s.send(element(acc, displs[static_cast<size_t>(mine)], type), span(counts, mine, size), type,
               fold.peer(partner));
        s.recv(element(acc, displs[static_cast<size_t>(theirs)], type), span(counts, theirs, size), type,
               fold.peer(partner));
        s.end_round();
    }
}

}  // namespace ftmpi::coll
