// Intercommunicator allgather(v): every rank receives the other group's
// blocks, in remote rank order. Each rank sends its block to every remote
// rank and receives one from each, all in one round; p*q messages, meant for
// small groups (like the other intercommunicator algorithms).
#include "algorithms.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void allgather_inter(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                     MPI_Datatype rtype) {
    for (int peer = 0; peer < remote_size(s.comm()); ++peer) {
        s.send(sendbuf, scount, stype, peer);
        s.recv(element(recvbuf, static_cast<MPI_Aint>(peer) * rcount, rtype), rcount, rtype, peer);
    }
    s.end_round();
}

// rcounts and displs are indexed by remote rank (displacements in extents).
void allgatherv_inter(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                      const int rcounts[], const int displs[], MPI_Datatype rtype) {
    for (int peer = 0; peer < remote_size(s.comm()); ++peer) {
        s.send(sendbuf, scount, stype, peer);
        s.recv(element(recvbuf, displs[peer], rtype), rcounts[peer], rtype, peer);
    }
    s.end_round();
}

}  // namespace ftmpi::coll
