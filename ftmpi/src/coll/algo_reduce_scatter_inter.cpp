// Intercommunicator reduce-scatter: each group receives the reduction of the
// other group's vectors, cut into blocks by its own recvcounts (the two
// groups' vectors have the same length; each group's cut is its own), and
// combined in remote rank order, so non-commutative ops work.
#include "algorithms.hpp"
#include "reduce_in_order.hpp"
#include "steps.hpp"

namespace ftmpi::coll {

// The general form: a sender does not know how the other group cuts the
// vector, so it sends the whole vector to every remote rank; each receiver
// combines only its own block of the q vectors. q*total elements per
// receiver: meant for small groups and vectors.
void reduce_scatter_inter(Schedule &s, const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type,
                          MPI_Op op) {
    MPI_Comm comm = s.comm();
    const int q = remote_size(comm);
    MPI_Aint total = 0, offset = 0;
    for (int i = 0; i < comm->size; ++i) {
        if (i == comm->rank) offset = total;
        total += recvcounts[i];
    }
    const int count = recvcounts[comm->rank];
    char *vectors = s.scratch_for(static_cast<int>(total * q), type);
    for (int peer = 0; peer < q; ++peer) {
        s.send(sendbuf, static_cast<int>(total), type, peer);
        s.recv(element(vectors, total * peer, type), static_cast<int>(total), type, peer);
    }
    s.end_round();
    if (count == 0) return;
    // acc = v(q-1); acc = v(i) op acc down to v(0), on this rank's block.
    char *acc = element(vectors, total * (q - 1) + offset, type);
    for (int i = q - 2; i >= 0; --i) reduce_step(s, op, element(vectors, total * i + offset, type), acc, count, type);
    copy_step(s, acc, count, type, recvbuf, count, type);
}

// The block form: every rank of the other group receives the same count,
// which a sender can compute (this group's n * recvcount over the remote
// size; the binding checked that it divides), so it sends each remote rank
// only that rank's block.
void reduce_scatter_block_inter(Schedule &s, const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
                                MPI_Op op) {
    MPI_Comm comm = s.comm();
    const int q = remote_size(comm);
    const MPI_Aint remote_count = static_cast<MPI_Aint>(comm->size) * recvcount / q;
    char *blocks = s.scratch_for(recvcount * q, type);
    for (int peer = 0; peer < q; ++peer) {
        s.send(element(sendbuf, remote_count * peer, type), static_cast<int>(remote_count), type, peer);
        s.recv(element(blocks, static_cast<MPI_Aint>(recvcount) * peer, type), recvcount, type, peer);
    }
    s.end_round();
    reduce_in_order(s, blocks, q, recvbuf, recvcount, type, op);
}

}  // namespace ftmpi::coll
