// Reduce-scatter as a binomial reduce of the whole
// vector to rank 0 and a linear scatterv of the blocks. Works for every op
// (the reduce keeps rank order), and is the short-message choice.
#include "algorithms.hpp"
#include "internal/comm.hpp"

#include <vector>

namespace ftmpi::coll {

void reduce_scatter_reduce_scatterv(Schedule &s, const void *sendbuf, void *recvbuf, const int recvcounts[],
                                    MPI_Datatype type, MPI_Op op) {
    // The vector is laid out over every comm rank (gaps of a BLANK comm
    // included: their blocks are reduced and dropped).
    const int extent = s.comm()->size, r = s.rank();
    std::vector<int> displs(extent);
    int total = 0;
    for (int i = 0; i < extent; ++i) {
        displs[i] = total;
        total += recvcounts[i];
    }
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    char *reduced = r == 0 ? s.scratch_for(total, type) : nullptr;
    if (total > 0) reduce_binomial(s, input, reduced, total, type, op, 0);
    scatterv_linear(s, reduced, recvcounts, displs.data(), type, recvbuf, recvcounts[s.comm_rank(r)], type, 0);
}

}  // namespace ftmpi::coll
