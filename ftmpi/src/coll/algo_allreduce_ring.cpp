// Ring allreduce: a ring reduce-scatter leaves each
// rank one reduced block, a ring allgather passes the blocks round. Each rank
// sends and receives 2(p-1)/p of the message in 2(p-1) steps: the
// bandwidth-optimal choice for long messages and commutative ops.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "ring_reduce_scatter.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void allreduce_ring(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op) {
    const int p = s.size(), r = s.rank();
    if (sendbuf != MPI_IN_PLACE) copy_step(s, sendbuf, count, type, recvbuf, count, type);
    if (p < 2) return;
    std::vector<int> displs, counts;
    even_blocks(count, p, displs, counts);
    char *acc = static_cast<char *>(recvbuf);
    ring_reduce_scatter(s, acc, displs, counts, type, op, 1);  // rank r holds block r+1
    const int next = (r + 1) % p, prev = (r - 1 + p) % p;
    for (int k = 0; k < p - 1; ++k) {
        const int out = (r + 1 - k + p) % p, in = (r - k + p) % p;
        s.send(element(acc, displs[out], type), counts[out], type, next);
        s.recv(element(acc, displs[in], type), counts[in], type, prev);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
