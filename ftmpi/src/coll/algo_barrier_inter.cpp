// Intercommunicator barrier: every rank signals every
// rank of the remote group and waits for all of them, so nobody leaves before
// the whole other group entered. p*q messages: meant for small groups.
#include "algorithms.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

void barrier_inter(Schedule &s) {
    const int q = remote_size(s.comm());
    for (int peer = 0; peer < q; ++peer) {
        s.send(nullptr, 0, MPI_BYTE, peer);
        s.recv(nullptr, 0, MPI_BYTE, peer);
    }
    s.end_round();
}

}  // namespace ftmpi::coll
