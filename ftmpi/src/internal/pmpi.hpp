// The PMPI_ twin of every MPI_ function.
//
// Profiling tools (and MPI_T-less tracers) define MPI_X themselves and call
// PMPI_X; so each part defines MPI_X and, in the same file after the
// definition, writes
//
//     FTMPI_PMPI(Send)
//
// which makes PMPI_Send a weak alias of MPI_Send (the tool's strong MPI_Send
// then wins at link time, ours stays reachable as PMPI_Send).
#pragma once

#include "mpi.h"

#define FTMPI_PMPI(name) extern "C" __typeof__(MPI_##name) PMPI_##name __attribute__((weak, alias("MPI_" #name)));
