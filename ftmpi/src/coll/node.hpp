// Shared-memory collectives: Barrier, and Bcast, Reduce, Allreduce, Gather,
// Allgather, Scatter and Alltoall of short messages, on a communicator whose
// members all run on this host, through a segment the members map
// (node_segment.hpp) instead of messages.
//
// Why: a short collective through p2p costs every message's matching,
// request and wake-up; through the segment a barrier is one store per
// member and a look at the others' words, a short bcast one copy in and one
// copy out. The decision table picks the `shm` algorithm (default_table.txt);
// a communicator that cannot use it runs the table's next choice.
//
// Set-up, at a communicator's first call that picks `shm`, collectively,
// through the ordinary algorithms: rank 0 creates the segment, a bcast
// carries its name, the others map it, and an allreduce tells everyone
// whether every member could (and every member reaches every other through
// shared memory): all use it from then on, or none ever does. The name is
// removed once everyone has mapped it, so nothing stays in /dev/shm; a
// creator killed before that has its file removed with its job's others.
//
// Failures (FT_CONTRACTS.md "Collectives under failures"): a member waits
// only for words that a live member writes without waiting first, so a live
// member never keeps another waiting; a wait ends with MPIX_ERR_PROC_FAILED
// once any member is known failed, and with MPIX_ERR_REVOKED once the
// communicator is revoked. A call that starts with a member already known
// failed, or on a revoked or strict communicator, takes the schedules, which
// say which error and carry the error markers. A recovery in place forgets
// the segment (forget()), and the next call sets one up again.
#pragma once

#include "mpi.h"

#include <optional>

namespace ftmpi::coll::node {

// Each returns nullopt when the shared-memory path does not take the call
// (the caller then runs the schedules), else the call's MPI code.
std::optional<int> barrier(MPI_Comm comm);
std::optional<int> bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
std::optional<int> reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                          MPI_Comm comm);
std::optional<int> allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm);
std::optional<int> gather(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm);
std::optional<int> allgather(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm);
// Scatter and Alltoall: only when the p blocks fit the segment's slot.
std::optional<int> scatter(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm);
std::optional<int> alltoall(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm);

// A recovery in place restarted comm's collectives: its members number
// them from 1 again, and a replacement has no segment; the next call that
// picks shared memory sets one up again.
void forget(MPI_Comm comm);

}  // namespace ftmpi::coll::node
