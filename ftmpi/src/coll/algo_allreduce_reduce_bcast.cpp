// Allreduce as a binomial reduce to rank 0 followed by
// a binomial broadcast: 2 log2 p steps, but only 2(p-1) messages in all,
// which suits oversubscribed hosts where each message costs a wake-up.
#include "algorithms.hpp"

namespace ftmpi::coll {

void allreduce_reduce_bcast(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op) {
    reduce_binomial(s, sendbuf, recvbuf, count, type, op, 0);
    bcast_binomial(s, recvbuf, count, type, 0);
}

}  // namespace ftmpi::coll
