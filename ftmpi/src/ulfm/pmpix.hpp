// The PMPIX_ twin of every MPIX_ function (as FTMPI_PMPI in
// internal/pmpi.hpp does for MPI_): after a definition of MPIX_X write
//
//     FTMPI_PMPIX(X)
//
// and PMPIX_X is a weak alias of MPIX_X, so a profiling tool's own MPIX_X
// wins at link time and ours stays reachable as PMPIX_X.
#pragma once

#include "mpi-ext.h"

#define FTMPI_PMPIX(name) extern "C" __typeof__(MPIX_##name) PMPIX_##name __attribute__((weak, alias("MPIX_" #name)));
