// The blocks an alltoallw exchanges, shared by its linear and pairwise
// algorithms, and MPI_IN_PLACE for Alltoall(v,w): the data to send is in
// recvbuf, laid out like the receive side. The algorithms copy it to schedule-owned memory first
// (a plain byte copy of the span the receive layout covers) and then run as if
// it had been passed as sendbuf with the receive counts, displacements and
// types.
#pragma once

#include "schedule.hpp"

namespace ftmpi::coll {

// Returns the copy standing in for sendbuf (same addressing as recvbuf).
// byte_displs[i] = block i's displacement in bytes.
char *in_place_input(Schedule &s, void *recvbuf, int n, const int counts[], const MPI_Aint byte_displs[],
                     const MPI_Datatype types[]);

// An alltoallw's two sides; displacements in bytes, indexed by comm rank.
// With MPI_IN_PLACE the send side is the copy from in_place_input(),
// described by the receive counts, displacements and types.
class AlltoallwBlocks {
public:
    AlltoallwBlocks(Schedule &s, const void *sendbuf, const int scounts[], const int sdispls[],
                    const MPI_Datatype stypes[], void *recvbuf, const int rcounts[], const int rdispls[],
                    const MPI_Datatype rtypes[]);
    // Posts step k's transfers: a send to view rank r+k, a receive from r-k.
    void exchange(int k) const;
    // Schedules the copy of this rank's own block.
    void copy_own() const;

private:
    Schedule &s_;
    const char *src_;
    const int *scounts_, *sdispls_;
    const MPI_Datatype *stypes_;
    char *out_;
    const int *rcounts_, *rdispls_;
    const MPI_Datatype *rtypes_;
};

}  // namespace ftmpi::coll
