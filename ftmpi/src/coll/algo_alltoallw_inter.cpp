// Intercommunicator alltoallw: block j of the send side goes to remote rank
// j, block j of the receive side comes from it; the arrays are indexed by
// remote rank, displacements in bytes. Every transfer in one round (there is
// no own block to copy). Alltoall and Alltoallv reach it in Alltoallw's form.
#include "algorithms.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void alltoallw_inter(Schedule &s, const void *sendbuf, const int scounts[], const int sdispls[],
                     const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                     const MPI_Datatype rtypes[]) {
    for (int peer = 0; peer < remote_size(s.comm()); ++peer) {
        s.send(static_cast<const char *>(sendbuf) + sdispls[peer], scounts[peer], stypes[peer], peer);
        s.recv(static_cast<char *>(recvbuf) + rdispls[peer], rcounts[peer], rtypes[peer], peer);
    }
    s.end_round();
}

}  // namespace ftmpi::coll
