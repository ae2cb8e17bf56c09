/* Shared by the collective tests: fail loudly with
 * one line saying what was wrong, and end the job. */
#ifndef COLL_CHECK_H
#define COLL_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            int check_rank_ = -1;                                           \
            MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                    \
            fprintf(stderr, "rank %d: %s:%d: ", check_rank_, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fprintf(stderr, "\n");                                          \
            fflush(stderr);                                                 \
            MPI_Abort(MPI_COMM_WORLD, 1);                                   \
        }                                                                   \
    } while (0)

#define CHECK_MPI(call)                                                     \
    do {                                                                    \
        int check_rc_ = (call);                                             \
        CHECK(check_rc_ == MPI_SUCCESS, "%s returned %d", #call, check_rc_); \
    } while (0)

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
