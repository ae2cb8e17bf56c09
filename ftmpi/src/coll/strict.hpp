// Strict Bcast (FT_CONTRACTS.md "Collectives under
// failures", FT-MPI's strict collective correctness): every survivor
// returns the same data.
#pragma once

#include "mpi.h"
#include "schedule.hpp"

namespace ftmpi::coll {

// Appends the Bcast algorithm for (buf, count, type, root) to s; root is a
// comm rank (api_bcast.cpp).
void build_bcast(Schedule &s, void *buf, int count, MPI_Datatype type, int root);

// Blocking strict Bcast on an intracommunicator, arguments already checked:
// broadcast, then agree on "it succeeded here" and on the failed members;
// when some survivor failed and the root is alive, broadcast again over the
// survivors (a new live view without the agreed failed members), until an
// agreement says it succeeded everywhere. Returns MPI_SUCCESS everywhere, or
// MPIX_ERR_PROC_FAILED everywhere when the root failed.
int strict_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);

}  // namespace ftmpi::coll
