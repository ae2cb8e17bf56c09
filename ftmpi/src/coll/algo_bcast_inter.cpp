// Intercommunicator broadcast: the root (MPI_ROOT)
// sends to every rank of the remote group; the rest of the root's group
// (MPI_PROC_NULL) does nothing; receivers take it from the root.
#include "algorithms.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void bcast_inter(Schedule &s, void *buf, int count, MPI_Datatype type, int root) {
    if (root == MPI_PROC_NULL) return;
    if (root == MPI_ROOT) {
        for (int peer = 0; peer < remote_size(s.comm()); ++peer) s.send(buf, count, type, peer);
    } else {
        s.recv(buf, count, type, root);
    }
    s.end_round();
}

}  // namespace ftmpi::coll
