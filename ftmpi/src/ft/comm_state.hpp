// Communicator states as FTMPI_Comm_get_state reports them.
#pragma once

#include "mpi.h"

namespace ftmpi::ft {
// FTMPI_COMM_OK … FTMPI_COMM_FAILED: the stored state (recovery writes
// RECOVER/RECOVERED/FAILED), with DETECTED computed from the failure list
// (a member failed at an index >= comm->ft.recovered_at), so the answer is
// right even for a communicator the failure broadcast has not reached.
int comm_state(MPI_Comm comm);
// FTMPI_PROC_OK … FTMPI_PROC_UNAVAILABLE for world rank `world` (-1: a
// BLANK gap, FAILED) as a member of comm (FTMPI_Comm_get_proc_state; the
// caller has called sync_with_p2p).
int proc_state(MPI_Comm comm, int world);
}  // namespace ftmpi::ft
