// Binomial fan-in to rank 0, then fan-out: 2 log2 p
// rounds but only 2(p-1) messages, so fewer wake-ups than dissemination when
// ranks outnumber cores.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "tree.hpp"

namespace ftmpi::coll {

void barrier_tree(Schedule &s) {
    const int p = s.size(), r = s.rank();
    if (p < 2) return;
    const auto kids = tree::children(r, p);
    for (int child : kids) s.recv(nullptr, 0, MPI_BYTE, child);
    s.end_round();
    if (r != 0) {
        s.send(nullptr, 0, MPI_BYTE, tree::parent(r));
        s.end_round();
        s.recv(nullptr, 0, MPI_BYTE, tree::parent(r));
        s.end_round();
    }
    for (int child : kids) s.send(nullptr, 0, MPI_BYTE, child);
    s.end_round();
}

}  // namespace ftmpi::coll
