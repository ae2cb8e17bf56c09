// Binomial-tree broadcast: log2 p steps, each rank
// receives once from its parent and then sends to its children, the largest
// subtree first (it has the longest way to go). Best for short messages.
#include "algorithms.hpp"
#include "internal/comm.hpp"
#include "tree.hpp"

#include <ranges>

namespace ftmpi::coll {

void bcast_binomial(Schedule &s, void *buf, int count, MPI_Datatype type, int root) {
    const int p = s.size();
    const int v = tree::to_vrank(s.rank(), root, p);
    if (v != 0) {
        s.recv(buf, count, type, tree::to_rank(tree::parent(v), root, p));
        s.end_round();
    }
    for (int child : std::views::reverse(tree::children(v, p))) s.send(buf, count, type, tree::to_rank(child, root, p));
    s.end_round();
}

}  // namespace ftmpi::coll
