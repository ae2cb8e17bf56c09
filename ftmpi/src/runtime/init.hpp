// MPI_Init in two steps, so that a test can bring up a
// REBUILD replacement's process without the recovery part's join.
#pragma once

namespace ftmpi::runtime {

// Everything MPI_Init does before a replacement joins the recovery: wire-up
// and engine, MPI_COMM_WORLD/SELF, ft::init. *restarted tells whether this
// process is a replacement (FTMPI_RESTARTED=1, or a hot standby the job
// promoted: FTMPI_STANDBY, runtime/standby.hpp); MPI_Init then calls
// ft::join_as_replacement and returns MPI_INIT_RESTARTED_NODE.
// MPI_ERR_OTHER when MPI was initialized already; other failures end the process.
int init_before_join(int required, int *provided, bool *restarted);

}  // namespace ftmpi::runtime
