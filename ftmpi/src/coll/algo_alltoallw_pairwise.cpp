// Pairwise-exchange alltoallw: in step k rank r sends
// to r+k and receives from r-k, one peer at a time, so no rank is flooded by
// p-1 senders at once: the long-message choice.
#include "algorithms.hpp"
#include "alltoall_input.hpp"

namespace ftmpi::coll {

void alltoallw_pairwise(Schedule &s, const void *sendbuf, const int scounts[], const int sdispls[],
                        const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                        const MPI_Datatype rtypes[]) {
    const AlltoallwBlocks blocks(s, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes);
    blocks.copy_own();
    for (int k = 1; k < s.size(); ++k) {
        blocks.exchange(k);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
