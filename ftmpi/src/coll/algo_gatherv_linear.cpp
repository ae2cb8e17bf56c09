// Linear gatherv: as the linear gather, with each
// rank's count and displacement (in receive-type extents) at the root.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void gatherv_linear(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype, int root) {
    const int p = s.size(), r = s.rank();
    if (r != root) {
        s.send(sendbuf, scount, stype, root);
        s.end_round();
        return;
    }
    for (int i = 0; i < p; ++i)
        if (i != root) s.recv(element(recvbuf, displs[s.comm_rank(i)], rtype), rcounts[s.comm_rank(i)], rtype, i);
    s.end_round();
    if (sendbuf != MPI_IN_PLACE)
        copy_step(s, sendbuf, scount, stype, element(recvbuf, displs[s.comm_rank(root)], rtype),
                  rcounts[s.comm_rank(root)], rtype);
}

}  // namespace ftmpi::coll
