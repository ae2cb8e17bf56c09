// Linear gather: the root posts a receive per rank at
// once and copies its own block; every other rank sends once. One step; the
// root's link is the bottleneck, so best for large blocks or few ranks.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void gather_linear(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                   MPI_Datatype rtype, int root) {
    const int p = s.size(), r = s.rank();
    if (r != root) {
        s.send(sendbuf, scount, stype, root);
        s.end_round();
        return;
    }
    for (int i = 0; i < p; ++i)
        if (i != root)
            s.recv(element(recvbuf, static_cast<MPI_Aint>(s.comm_rank(i)) * rcount, rtype), rcount, rtype, i);
    s.end_round();
    if (sendbuf != MPI_IN_PLACE)
        copy_step(s, sendbuf, scount, stype, element(recvbuf, static_cast<MPI_Aint>(s.comm_rank(root)) * rcount, rtype),
                  rcount, rtype);
}

}  // namespace ftmpi::coll
