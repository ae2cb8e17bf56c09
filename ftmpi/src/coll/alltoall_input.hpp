// MPI_IN_PLACE for Alltoall(v,w): the data to send is in recvbuf, laid out
// like the receive side. The algorithms copy it to schedule-owned memory first
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

}  // namespace ftmpi::coll
