// Linear scatterv: as the linear scatter, with each
// rank's count and displacement (in send-type extents) at the root.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void scatterv_linear(Schedule &s, const void *sendbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                     void *recvbuf, int rcount, MPI_Datatype rtype, int root) {
    const int p = s.size(), r = s.rank();
    if (r != root) {
        s.recv(recvbuf, rcount, rtype, root);
        s.end_round();
        return;
    }
    for (int i = 0; i < p; ++i)
        if (i != root) s.send(element(sendbuf, displs[s.comm_rank(i)], stype), scounts[s.comm_rank(i)], stype, i);
    s.end_round();
    if (recvbuf != MPI_IN_PLACE)
        copy_step(s, element(sendbuf, displs[s.comm_rank(root)], stype), scounts[s.comm_rank(root)], stype, recvbuf,
                  rcount, rtype);
}

}  // namespace ftmpi::coll
