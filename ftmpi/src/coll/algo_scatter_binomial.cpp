// Binomial scatter: the root packs the blocks in vrank
// order; each rank receives its subtree's blocks in one message from its
// parent, forwards each child its subtree's part and unpacks its own.
// log2 p steps: the short-message choice.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"
#include "tree.hpp"

#include <ranges>

namespace ftmpi::coll {

void scatter_binomial(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                      MPI_Datatype rtype, int root) {
    const int p = s.size(), r = s.rank();
    const int v = tree::to_vrank(r, root, p);
    const bool at_root = r == root;
    const size_t block = at_root ? data_bytes(scount, stype) : data_bytes(rcount, rtype);
    const int span = tree::subtree_size(v, p);
    char *staging = s.scratch(block * span);

    if (at_root) {
        for (int i = 0; i < p; ++i)
            pack_step(s,
                      element(sendbuf, static_cast<MPI_Aint>(s.comm_rank(tree::to_rank(i, root, p))) * scount, stype),
                      scount, stype, staging + block * i);
    } else {
        s.recv(staging, static_cast<int>(block * span), MPI_BYTE, tree::to_rank(tree::parent(v), root, p));
        s.end_round();
    }
    for (int child : std::views::reverse(tree::children(v, p))) {
        const int bytes = static_cast<int>(block * tree::subtree_size(child, p));
        s.send(staging + block * (child - v), bytes, MPI_BYTE, tree::to_rank(child, root, p));
    }
    s.end_round();
    if (!at_root || recvbuf != MPI_IN_PLACE) unpack_step(s, staging, recvbuf, rcount, rtype);
}

}  // namespace ftmpi::coll
