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
// MPI-4 sessions (src/session): the runtime starts with the first session
// or MPI_Init and ends once MPI_Finalize (if MPI_Init was called) and the
// last session's end have been called. start_session: MPI_SUCCESS, or
// MPI_ERR_OTHER once the runtime has ended (it cannot start again).
// end_session: MPI_ERR_OTHER when no session is open.
int start_session(int required, int *provided);
int end_session();
// Ends the whole job (MPI_Abort, MPI_ERRORS_ARE_FATAL): tells the launcher,
// which kills every rank; this process exits with `code` (1 if 0).
[[noreturn]] void abort_job(int code);
}  // namespace ftmpi::runtime
