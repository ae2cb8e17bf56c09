// The process's place in the job, as the other parts
// of libftmpi see it: valid between MPI_Init and MPI_Finalize.
#pragma once

namespace ftmpi::runtime {
bool initialized();
bool finalized();
// This process's world rank in the job, and how many world ranks the job
// had when it started (a spawned process's world rank is not its rank in
// its MPI_COMM_WORLD: CONTRACTS.md, "Process identity").
int world_rank();
int world_size();
int thread_level();  // the level MPI_Init_thread provided
// Ends the whole job (MPI_Abort, MPI_ERRORS_ARE_FATAL): tells the launcher,
// which kills every rank; this process exits with `code` (1 if 0).
[[noreturn]] void abort_job(int code);
}  // namespace ftmpi::runtime
