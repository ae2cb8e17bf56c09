// Intercommunicator gather and scatter: the root
// (MPI_ROOT) receives from / sends to every remote rank directly; MPI_PROC_NULL
// ranks do nothing; the other group's ranks send to / receive from the root.
#include "algorithms.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void gather_inter(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                  MPI_Datatype rtype, int root) {
    if (root == MPI_PROC_NULL) return;
    if (root == MPI_ROOT) {
        for (int peer = 0; peer < remote_size(s.comm()); ++peer)
            s.recv(element(recvbuf, static_cast<MPI_Aint>(peer) * rcount, rtype), rcount, rtype, peer);
    } else {
        s.send(sendbuf, scount, stype, root);
    }
    s.end_round();
}

void scatter_inter(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                   MPI_Datatype rtype, int root) {
    if (root == MPI_PROC_NULL) return;
    if (root == MPI_ROOT) {
        for (int peer = 0; peer < remote_size(s.comm()); ++peer)
            s.send(element(sendbuf, static_cast<MPI_Aint>(peer) * scount, stype), scount, stype, peer);
    } else {
        s.recv(recvbuf, rcount, rtype, root);
    }
    s.end_round();
}

}  // namespace ftmpi::coll
