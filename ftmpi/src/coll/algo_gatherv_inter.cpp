// Intercommunicator gatherv and scatterv: as gather_inter / scatter_inter
// (algo_gather_inter.cpp) with each remote rank's count and displacement
// (in extents of the root's type), given at the root (MPI_ROOT) only. The
// rest of the root's group (MPI_PROC_NULL) does nothing.
#include "algorithms.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void gatherv_inter(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, const int rcounts[],
                   const int displs[], MPI_Datatype rtype, int root) {
    if (root == MPI_PROC_NULL) return;
    if (root == MPI_ROOT) {
        for (int peer = 0; peer < remote_size(s.comm()); ++peer)
            s.recv(element(recvbuf, displs[peer], rtype), rcounts[peer], rtype, peer);
    } else {
        s.send(sendbuf, scount, stype, root);
    }
    s.end_round();
}

void scatterv_inter(Schedule &s, const void *sendbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                    void *recvbuf, int rcount, MPI_Datatype rtype, int root) {
    if (root == MPI_PROC_NULL) return;
    if (root == MPI_ROOT) {
        for (int peer = 0; peer < remote_size(s.comm()); ++peer)
            s.send(element(sendbuf, displs[peer], stype), scounts[peer], stype, peer);
    } else {
        s.recv(recvbuf, rcount, rtype, root);
    }
    s.end_round();
}

}  // namespace ftmpi::coll
