// The process's MPI lifecycle as its launcher's daemon sees it.
//
// vm/spawn_notify gives every process it starts a socket, named by
// HARNESS_LIFECYCLE_FD (plugins/VM_SERVICES.md). libftmpi writes one word per
// line to it: "initialized" once MPI_Init has succeeded, "finalized" once
// MPI_Finalize has, "aborted" in MPI_Abort (and MPI_ERRORS_ARE_FATAL). The
// daemon reports the last word with the process's exit, so ftmpirun and the
// other ranks tell an exit without MPI_Finalize — a process failure in the
// fault-tolerant modes — from a normal end, whatever the exit status.
// Without the variable (a singleton, another launcher) nothing is written.
#pragma once

namespace ftmpi::runtime {
// Writes `word` and a newline to the lifecycle socket; never fails loudly (the
// daemon may be gone, the process must go on).
void report_lifecycle(const char *word) noexcept;
}  // namespace ftmpi::runtime
