// Ring reduce-scatter: the ring's p-1 steps leave rank
// r with block r reduced; each rank moves only (p-1)/p of the vector.
// Commutative ops only (blocks are combined in ring order).
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "ring_reduce_scatter.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void reduce_scatter_ring(Schedule &s, const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
                         MPI_Op op) {
    const int p = s.size(), r = s.rank();
    std::vector<int> displs(p), counts(recvcounts, recvcounts + p);
    int total = 0;
    for (int i = 0; i < p; ++i) {
        displs[i] = total;
        total += counts[i];
    }
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    char *acc = s.scratch_for(total, type);
    copy_step(s, input, total, type, acc, total, type);
    ring_reduce_scatter(s, acc, displs, counts, type, op, 0);
    copy_step(s, element(acc, displs[r], type), counts[r], type, recvbuf, counts[r], type);
}

}  // namespace ftmpi::coll
