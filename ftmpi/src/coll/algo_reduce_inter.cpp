// Intercommunicator reduction: the root (MPI_ROOT)
// receives every remote rank's contribution and combines them in rank order;
// the remote group's ranks send theirs; MPI_PROC_NULL ranks do nothing.
#include "algorithms.hpp"
#include "reduce_in_order.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void reduce_inter(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root) {
    if (root == MPI_PROC_NULL) return;
    if (root != MPI_ROOT) {
        s.send(sendbuf, count, type, root);
        s.end_round();
        return;
    }
    const int q = remote_size(s.comm());
    char *blocks = s.scratch_for(count * q, type);
    for (int peer = 0; peer < q; ++peer)
        s.recv(element(blocks, static_cast<MPI_Aint>(count) * peer, type), count, type, peer);
    s.end_round();
    reduce_in_order(s, blocks, q, recvbuf, count, type, op);
}

}  // namespace ftmpi::coll
