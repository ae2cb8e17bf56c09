// Recursive-doubling allreduce: in step k each rank
// exchanges its whole partial result with rank XOR 2^k and combines; log2 p
// steps of the full message, so best for short messages.
//
// A non-power-of-two size p = 2^m + rem first folds: of ranks 0..2rem-1,
// each even rank hands its data to the odd rank above it and sits out; the
// remaining 2^m ranks, renumbered in order, double; the odd ranks finally hand
// the result back. Every step combines a lower block of ranks with the block
// just above it, lower operand first, so non-commutative ops are correct.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "internal/op.hpp"
#include "steps.hpp"

#include <utility>

namespace ftmpi::coll {

void allreduce_recursive_doubling(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type,
                                  MPI_Op op) {
    const int p = s.size(), r = s.rank();
    const bool commutative = op::commutative(op);
    if (sendbuf != MPI_IN_PLACE) copy_step(s, sendbuf, count, type, recvbuf, count, type);
    if (p < 2) return;
    int pow2 = 1;
    while (pow2 * 2 <= p) pow2 *= 2;
    const int rem = p - pow2;

    char *acc = static_cast<char *>(recvbuf);
    char *incoming = s.scratch_for(count, type);
    // Combine `incoming` (from a peer of lower ranks or not) into acc.
    auto combine = [&](bool peer_is_lower) {
        if (peer_is_lower || commutative) {
            reduce_step(s, op, incoming, acc, count, type);
        } else {
            reduce_step(s, op, acc, incoming, count, type);
            std::swap(acc, incoming);
        }
    };

    int newrank;
    if (r < 2 * rem) {
        if (r % 2 == 0) {
            s.send(acc, count, type, r + 1);
            s.end_round();
            newrank = -1;
        } else {
            s.recv(incoming, count, type, r - 1);
            combine(true);
            newrank = r / 2;
        }
    } else {
        newrank = r - rem;
    }

    if (newrank >= 0) {
        for (int mask = 1; mask < pow2; mask <<= 1) {
            const int peer_new = newrank ^ mask;
            const int peer = peer_new < rem ? peer_new * 2 + 1 : peer_new + rem;
            s.send(acc, count, type, peer);
            s.recv(incoming, count, type, peer);
            combine(peer_new < newrank);
        }
    }

    if (r < 2 * rem) {
        if (r % 2 == 0) {
            s.recv(recvbuf, count, type, r + 1);
            s.end_round();
        } else {
            s.send(acc, count, type, r - 1);
            s.end_round();
        }
    }
    if (acc != recvbuf) copy_step(s, acc, count, type, recvbuf, count, type);
}

}  // namespace ftmpi::coll
