// Dissemination barrier (Hensgen, Finkel, Manber):
// in round k every rank signals rank + 2^k and waits for rank - 2^k, so after
// ceil(log2 p) rounds each rank has heard, transitively, from all others.
// Fewest rounds of any barrier; p messages per round.
#include "algorithms.hpp"
#include "internal/comm.hpp"

namespace ftmpi::coll {

void barrier_dissemination(Schedule &s) {
    const int p = s.size(), r = s.rank();
    for (int distance = 1; distance < p; distance <<= 1) {
        s.send(nullptr, 0, MPI_BYTE, (r + distance) % p);
        s.recv(nullptr, 0, MPI_BYTE, (r - distance + p) % p);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
