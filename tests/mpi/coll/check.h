/* The collective tests' checks (support/check.h) and the switch of a
 * collective's algorithm. */
#ifndef COLL_CHECK_H
#define COLL_CHECK_H

#include "support/check.h"

/* Switches a collective's algorithm: FTMPI_Coll_force in libftmpi (the
 * names of FTMPI_COLL_<NAME>, e.g. "ALLREDUCE", "ring"); other MPIs have no
 * such switch and run their own choice. NULL or "" restores the automatic
 * choice. An unknown name fails the test. */
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif
static inline void force_algorithm(const char *collective, const char *algorithm) {
#ifdef FTMPI_HAVE_COLL_FORCE
    CHECK_MPI(FTMPI_Coll_force(collective, algorithm));
#else
    (void)collective;
    (void)algorithm;
#endif
}

#endif
