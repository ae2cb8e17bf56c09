// Ring allgather: in p-1 steps each rank passes on the
// block it received last; every link carries one block per step, so it is
// bandwidth-optimal for long messages.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void allgather_ring(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                    MPI_Datatype rtype) {
    const int p = s.size(), r = s.rank();
    auto block = [&](int i) {
        return element(recvbuf, static_cast<MPI_Aint>(s.comm_rank((i % p + p) % p)) * rcount, rtype);
    };
    if (sendbuf != MPI_IN_PLACE) copy_step(s, sendbuf, scount, stype, block(r), rcount, rtype);
    const int next = (r + 1) % p, prev = (r - 1 + p) % p;
    for (int k = 0; k < p - 1; ++k) {
        s.send(block(r - k), rcount, rtype, next);
        s.recv(block(r - k - 1), rcount, rtype, prev);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
