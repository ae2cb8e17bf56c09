// Linear gatherv: as the linear gather, with each
// rank's count and displacement (in receive-type extents) at the root.
#include "algorithms.hpp"
#include "root_linear.hpp"

namespace ftmpi::coll {

void gatherv_linear(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype, int root) {
    gather_to_root(s, sendbuf, scount, stype, recvbuf, rtype, root,
                   [&](int c) { return std::pair(static_cast<MPI_Aint>(displs[c]), rcounts[c]); });
}

}  // namespace ftmpi::coll
