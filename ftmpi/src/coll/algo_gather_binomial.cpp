// Binomial gather: each rank collects its subtree's
// blocks (a contiguous range of vranks) in packed form and sends them to its
// parent in one message; the root unpacks them into place. log2 p steps
// instead of p-1 receives at the root: the short-message choice.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "steps.hpp"
#include "tree.hpp"

namespace ftmpi::coll {

void gather_binomial(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                     MPI_Datatype rtype, int root) {
    const int p = s.size(), r = s.rank();
    const int v = tree::to_vrank(r, root, p);
    const bool at_root = r == root;
    const size_t block = at_root ? data_bytes(rcount, rtype) : data_bytes(scount, stype);
    const int span = tree::subtree_size(v, p);
    char *staging = s.scratch(block * span);

    if (at_root && sendbuf == MPI_IN_PLACE)
        pack_step(s, element(recvbuf, static_cast<MPI_Aint>(s.comm_rank(r)) * rcount, rtype), rcount, rtype, staging);
    else
        pack_step(s, sendbuf, scount, stype, staging);
    for (int child : tree::children(v, p)) {
        const int bytes = static_cast<int>(block * tree::subtree_size(child, p));
        s.recv(staging + block * (child - v), bytes, MPI_BYTE, tree::to_rank(child, root, p));
    }
    s.end_round();
    if (!at_root) {
        s.send(staging, static_cast<int>(block * span), MPI_BYTE, tree::to_rank(tree::parent(v), root, p));
        s.end_round();
        return;
    }
    for (int i = 0; i < p; ++i)
        unpack_step(s, staging + block * i,
                    element(recvbuf, static_cast<MPI_Aint>(s.comm_rank(tree::to_rank(i, root, p))) * rcount, rtype),
                    rcount, rtype);
}

}  // namespace ftmpi::coll
