// Linear scatter: the root posts a send per rank at
// once and copies its own block; every other rank receives once.
#include "algorithms.hpp"
#include "root_linear.hpp"

namespace ftmpi::coll {

void scatter_linear(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                    MPI_Datatype rtype, int root) {
    scatter_from_root(s, sendbuf, stype, recvbuf, rcount, rtype, root,
                      [&](int c) { return std::pair(static_cast<MPI_Aint>(c) * scount, scount); });
}

}  // namespace ftmpi::coll
