// Owner: coll (mpicoll).
//
// The non-blocking test a schedule needs to advance without blocking. The
// contract's p2p.hpp has wait_all but no test; when core provides
// ftmpi::p2p::test_all (MPI_Testall without error-handler calls, same status
// conventions as wait_all) it is used, otherwise PMPI_Testall.
#pragma once

#include "mpi.h"

namespace ftmpi::coll {

int test_all(int n, MPI_Request *requests, int *flag, MPI_Status *statuses);

}  // namespace ftmpi::coll
