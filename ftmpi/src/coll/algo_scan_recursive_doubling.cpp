// Recursive-doubling (inclusive or exclusive) scan:
// in step k rank r exchanges with r XOR 2^k the reduction of its current
// block of ranks ("partial"). Data from a lower partner is folded into both
// the partial and the result; data from a higher partner only into the
// partial. log2 p steps; the lower operand always comes first, so
// non-commutative ops are correct.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "internal/op.hpp"
#include "steps.hpp"

#include <utility>

namespace ftmpi::coll {

void scan_recursive_doubling(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                             bool exclusive) {
    const int p = s.size(), r = s.rank();
    const bool commutative = op::commutative(op);
    const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    char *partial = s.scratch_for(count, type);
    char *incoming = s.scratch_for(count, type);
    copy_step(s, mine, count, type, partial, count, type);
    bool result_set = !exclusive;  // an inclusive scan starts from this rank's own data
    if (!exclusive) copy_step(s, mine, count, type, recvbuf, count, type);
    for (int mask = 1; mask < p; mask <<= 1) {
        const int peer = r ^ mask;
        if (peer >= p) continue;
        s.send(partial, count, type, peer);
        s.recv(incoming, count, type, peer);
        if (peer < r) {
            // The result must be updated first: the partial step overwrites nothing
            // it needs, but keep the order obvious.
            if (result_set) {
                reduce_step(s, op, incoming, recvbuf, count, type);
            } else {
                copy_step(s, incoming, count, type, recvbuf, count, type);
                result_set = true;
            }
            reduce_step(s, op, incoming, partial, count, type);
        } else if (commutative) {
            reduce_step(s, op, incoming, partial, count, type);
        } else {
            reduce_step(s, op, partial, incoming, count, type);  // incoming = partial op incoming
            std::swap(partial, incoming);
        }
    }
    s.end_round();
}

}  // namespace ftmpi::coll
