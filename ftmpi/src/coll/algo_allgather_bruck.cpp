// Bruck allgather: in step k each rank sends the
// blocks it has (its own and the next 2^k - 1 ranks') to rank - 2^k and
// receives as many from rank + 2^k, so ceil(log2 p) steps for any p; a final
// local rotation puts the blocks in rank order. The short-message choice.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

#include <algorithm>

namespace ftmpi::coll {

void allgather_bruck(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                     MPI_Datatype rtype) {
    const int p = s.size(), r = s.rank();
    // staging block i holds rank (r + i) mod p's data.
    char *staging = s.scratch_for(p * rcount, rtype);
    auto staged = [&](int i) { return element(staging, static_cast<MPI_Aint>(i) * rcount, rtype); };
    // Final positions are comm ranks (a BLANK comm's gaps are skipped).
    auto final_block = [&](int v) { return element(recvbuf, static_cast<MPI_Aint>(s.comm_rank(v)) * rcount, rtype); };
    if (sendbuf == MPI_IN_PLACE)
        copy_step(s, final_block(r), rcount, rtype, staged(0), rcount, rtype);
    else
        copy_step(s, sendbuf, scount, stype, staged(0), rcount, rtype);
    for (int distance = 1; distance < p; distance <<= 1) {
        const int n = std::min(distance, p - distance);
        s.send(staged(0), n * rcount, rtype, (r - distance + p) % p);
        s.recv(staged(distance), n * rcount, rtype, (r + distance) % p);
        s.end_round();
    }
    for (int i = 0; i < p; ++i) {
        const int owner = (r + i) % p;
        if (owner == r && sendbuf == MPI_IN_PLACE) continue;
        copy_step(s, staged(i), rcount, rtype, final_block(owner), rcount, rtype);
    }
}

}  // namespace ftmpi::coll
