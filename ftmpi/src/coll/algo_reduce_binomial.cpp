// Binomial-tree reduction: each rank folds in its
// children's partial results (children are higher vranks) and passes the
// result to its parent; log2 p steps.
//
// A commutative op uses a tree rooted at the root. A non-commutative op must
// combine in rank order: the tree is rooted at rank 0, where vrank = rank and
// every child holds a block of ranks just above its parent's, so
// "mine op child's" keeps the order; rank 0 then sends the result to the root.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "internal/op.hpp"
#include "steps.hpp"
#include "tree.hpp"

#include <utility>

namespace ftmpi::coll {

void reduce_binomial(Schedule &s, const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                     int root) {
    const int p = s.size(), r = s.rank();
    const bool commutative = op::commutative(op);
    const int tree_root = commutative ? root : 0;
    const int v = tree::to_vrank(r, tree_root, p);
    const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    const auto kids = tree::children(v, p);

    // acc holds this subtree's partial result so far.
    const void *acc = mine;
    if (!kids.empty()) {
        char *target = r == root && r == tree_root ? static_cast<char *>(recvbuf) : s.scratch_for(count, type);
        copy_step(s, mine, count, type, target, count, type);
        char *incoming = s.scratch_for(count, type);
        char *accumulator = target;
        for (int child : kids) {
            s.recv(incoming, count, type, tree::to_rank(child, tree_root, p));
            if (commutative) {
                reduce_step(s, op, incoming, accumulator, count, type);
            } else {
                // incoming = accumulator op incoming, then they swap roles.
                reduce_step(s, op, accumulator, incoming, count, type);
                std::swap(accumulator, incoming);
            }
        }
        acc = accumulator;
    }
    if (v != 0) {
        s.send(acc, count, type, tree::to_rank(tree::parent(v), tree_root, p));
        s.end_round();
    } else if (r == root) {
        copy_step(s, acc, count, type, recvbuf, count, type);
    } else {
        s.send(acc, count, type, root);  // non-commutative, root != 0
        s.end_round();
    }
    if (r == root && r != tree_root) {
        s.recv(recvbuf, count, type, tree_root);
        s.end_round();
    }
}

}  // namespace ftmpi::coll
