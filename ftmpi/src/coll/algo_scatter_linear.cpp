// Linear scatter: the root posts a send per rank at
// once and copies its own block; every other rank receives once.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void scatter_linear(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                    MPI_Datatype rtype, int root) {
    const int p = s.size(), r = s.rank();
    if (r != root) {
        s.recv(recvbuf, rcount, rtype, root);
        s.end_round();
        return;
    }
    for (int i = 0; i < p; ++i)
        if (i != root)
            s.send(element(sendbuf, static_cast<MPI_Aint>(s.comm_rank(i)) * scount, stype), scount, stype, i);
    s.end_round();
    if (recvbuf != MPI_IN_PLACE)
        copy_step(s, element(sendbuf, static_cast<MPI_Aint>(s.comm_rank(root)) * scount, stype), scount, stype, recvbuf,
                  rcount, rtype);
}

}  // namespace ftmpi::coll
