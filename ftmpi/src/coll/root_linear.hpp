// The linear gather and scatter, for fixed-size blocks and per-rank ones: the
// root posts one transfer per rank at once and copies its own block; every
// other rank makes its one transfer. One step; the root's link is the
// bottleneck. block(c) gives comm rank c's block at the root as (displacement
// in type extents, count).
#pragma once

#include "internal/comm.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

template <class Block>
void gather_to_root(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, MPI_Datatype rtype,
                    int root, const Block &block) {
    if (s.rank() != root) {
        s.send(sendbuf, scount, stype, root);
        s.end_round();
        return;
    }
    for (int i = 0; i < s.size(); ++i) {
        if (i == root) continue;
        const auto [displ, count] = block(s.comm_rank(i));
        s.recv(element(recvbuf, displ, rtype), count, rtype, i);
    }
    s.end_round();
    if (sendbuf == MPI_IN_PLACE) return;
    const auto [displ, count] = block(s.comm_rank(root));
    copy_step(s, sendbuf, scount, stype, element(recvbuf, displ, rtype), count, rtype);
}

template <class Block>
void scatter_from_root(Schedule &s, const void *sendbuf, MPI_Datatype stype, void *recvbuf, int rcount,
                       MPI_Datatype rtype, int root, const Block &block) {
    if (s.rank() != root) {
        s.recv(recvbuf, rcount, rtype, root);
        s.end_round();
        return;
    }
    for (int i = 0; i < s.size(); ++i) {
        if (i == root) continue;
        const auto [displ, count] = block(s.comm_rank(i));
        s.send(element(sendbuf, displ, stype), count, stype, i);
    }
    s.end_round();
    if (recvbuf == MPI_IN_PLACE) return;
    const auto [displ, count] = block(s.comm_rank(root));
    copy_step(s, element(sendbuf, displ, stype), count, stype, recvbuf, rcount, rtype);
}

}  // namespace ftmpi::coll
