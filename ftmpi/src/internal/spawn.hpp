// Dynamic processes as the runtime sees them: a process that MPI_Comm_spawn
// started (FTMPI_PARENT) connects to its parents at the end of MPI_Init, and
// forgets them at MPI_Finalize.
#pragma once

namespace ftmpi::spawn {
// Builds the intercommunicator MPI_Comm_get_parent returns (collective over
// MPI_COMM_WORLD and the parents); MPI_SUCCESS when not spawned.
int connect_parent();
void forget_parent();
}  // namespace ftmpi::spawn
