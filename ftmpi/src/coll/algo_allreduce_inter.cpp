// Intercommunicator allreduce: each group receives
// the reduction of the other group's data. Every rank sends its contribution
// to every remote rank and combines what it receives in rank order; p*q
// messages, meant for small groups.
#include "algorithms.hpp"
#include "reduce_in_order.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void allreduce_inter(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op) {
    const int q = remote_size(s.comm());
    char *blocks = s.scratch_for(count * q, type);
    for (int peer = 0; peer < q; ++peer) {
        s.send(sendbuf, count, type, peer);
        s.recv(element(blocks, static_cast<MPI_Aint>(count) * peer, type), count, type, peer);
    }
    s.end_round();
    reduce_in_order(s, blocks, q, recvbuf, count, type, op);
}

}  // namespace ftmpi::coll
