// Linear scatterv: as the linear scatter, with each
// rank's count and displacement (in send-type extents) at the root.
#include "algorithms.hpp"
#include "root_linear.hpp"

namespace ftmpi::coll {

void scatterv_linear(Schedule &s, const void *sendbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                     void *recvbuf, int rcount, MPI_Datatype rtype, int root) {
    scatter_from_root(s, sendbuf, stype, recvbuf, rcount, rtype, root,
                      [&](int c) { return std::pair(static_cast<MPI_Aint>(displs[c]), scounts[c]); });
}

}  // namespace ftmpi::coll
