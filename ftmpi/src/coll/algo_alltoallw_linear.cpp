// Linear alltoallw: every send and receive posted at
// once, own block copied locally. One step; the transport overlaps all
// transfers. Alltoall and Alltoallv reach it with their displacements turned
// into bytes.
#include "algorithms.hpp"
#include "alltoall_input.hpp"

namespace ftmpi::coll {

void alltoallw_linear(Schedule &s, const void *sendbuf, const int scounts[], const int sdispls[],
                      const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                      const MPI_Datatype rtypes[]) {
    const AlltoallwBlocks blocks(s, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes);
    for (int k = 1; k < s.size(); ++k) blocks.exchange(k);
    s.end_round();
    blocks.copy_own();
}

}  // namespace ftmpi::coll
