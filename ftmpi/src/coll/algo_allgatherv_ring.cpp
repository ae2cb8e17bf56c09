// Ring allgatherv: the ring allgather with each
// rank's own count and displacement (in receive-type extents).
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void allgatherv_ring(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                     const int rcounts[], const int displs[], MPI_Datatype rtype) {
    const int p = s.size(), r = s.rank();
    auto at = [&](int i) { return s.comm_rank((i % p + p) % p); };  // comm rank of a view position
    if (sendbuf != MPI_IN_PLACE)
        copy_step(s, sendbuf, scount, stype, element(recvbuf, displs[at(r)], rtype), rcounts[at(r)], rtype);
    const int next = (r + 1) % p, prev = (r - 1 + p) % p;
    for (int k = 0; k < p - 1; ++k) {
        const int out = at(r - k), in = at(r - k - 1);
        s.send(element(recvbuf, displs[out], rtype), rcounts[out], rtype, next);
        s.recv(element(recvbuf, displs[in], rtype), rcounts[in], rtype, prev);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
