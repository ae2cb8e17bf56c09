// Linear (chain) scan: rank r waits for the prefix of
// ranks 0..r-1 from r-1, folds in its own data and passes the new prefix on.
// p-1 steps but one message per rank: few wake-ups when ranks outnumber cores.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void scan_linear(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                 bool exclusive) {
    const int p = s.size(), r = s.rank();
    const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    if (!exclusive) {
        // recvbuf = prefix(0..r-1) op mine
        copy_step(s, mine, count, type, recvbuf, count, type);
        if (r > 0) {
            char *prefix = s.scratch_for(count, type);
            s.recv(prefix, count, type, r - 1);
            reduce_step(s, op, prefix, recvbuf, count, type);
        }
        if (r + 1 < p) {
            s.send(recvbuf, count, type, r + 1);
            s.end_round();
        }
        return;
    }
    // Exclusive: recvbuf = prefix(0..r-1); pass on prefix op mine.
    if (r + 1 < p) {
        char *next = s.scratch_for(count, type);
        copy_step(s, mine, count, type, next, count, type);  // before recvbuf (maybe mine) is overwritten
        if (r > 0) {
            s.recv(recvbuf, count, type, r - 1);
            reduce_step(s, op, recvbuf, next, count, type);
        }
        s.send(next, count, type, r + 1);
        s.end_round();
    } else if (r > 0) {
        s.recv(recvbuf, count, type, r - 1);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
