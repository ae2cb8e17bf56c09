// Binomial tree arithmetic on ranks relative to a root (vrank = rank - root
// mod size): the parent of v clears v's lowest set bit, the children of v are
// v + 2^k for every 2^k below that bit. Subtrees are contiguous vrank ranges,
// which Gather/Scatter use to move a whole subtree in one message.
#pragma once

#include <vector>

namespace ftmpi::coll::tree {

inline int to_vrank(int rank, int root, int size) {
    return (rank - root + size) % size;
}
inline int to_rank(int vrank, int root, int size) {
    return (vrank + root) % size;
}

inline int parent(int vrank) {
    return vrank & (vrank - 1);
}

// Children in increasing distance (smallest subtree first).
inline std::vector<int> children(int vrank, int size) {
    std::vector<int> out;
    for (int mask = 1; mask < size; mask <<= 1) {
        if (vrank & mask) break;
        if (vrank + mask < size) out.push_back(vrank + mask);
    }
    return out;
}

// Number of vranks in the subtree rooted at vrank.
inline int subtree_size(int vrank, int size) {
    int span = 1;
    while (!(vrank & span) && vrank + span < size && span < size) span <<= 1;
    // span is the first bit that is set in vrank or reaches past size.
    const int end = vrank + span;
    return (end < size ? end : size) - vrank;
}

}  // namespace ftmpi::coll::tree
