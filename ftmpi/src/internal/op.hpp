// Reduction operations for the collectives: the predefined MPI_Ops on the
// type classes the standard allows them on, and user functions from
// MPI_Op_create, called with the user's datatype.
#pragma once

#include <mpi.h>

namespace ftmpi::op {

int apply(MPI_Op, const void *in, void *inout, int count, MPI_Datatype);  // inout = in op inout
bool commutative(MPI_Op);
bool valid(MPI_Op, MPI_Datatype);  // is the op defined on this type

// Additions beyond the contract page: keep a user op alive while a pending
// (non-blocking) collective uses it, as for datatypes. No-ops on predefined ops.
void retain(MPI_Op);
void release(MPI_Op);

}  // namespace ftmpi::op
