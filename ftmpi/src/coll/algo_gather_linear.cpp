// Linear gather: the root posts a receive per rank at
// once and copies its own block; every other rank sends once. One step; the
// root's link is the bottleneck, so best for large blocks or few ranks
// (root_linear.hpp).
#include "algorithms.hpp"
#include "root_linear.hpp"

namespace ftmpi::coll {

void gather_linear(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                   MPI_Datatype rtype, int root) {
    gather_to_root(s, sendbuf, scount, stype, recvbuf, rtype, root,
                   [&](int c) { return std::pair(static_cast<MPI_Aint>(c) * rcount, rcount); });
}

}  // namespace ftmpi::coll
