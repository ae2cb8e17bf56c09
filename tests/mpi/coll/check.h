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

/* Switches a collective's algorithm (FTMPI_COLL_<NAME>, read at each call by
 * libftmpi; other MPIs ignore it). NULL or "" restores the automatic choice. */
static inline void force_algorithm(const char *collective, const char *algorithm) {
    char name[64];
    snprintf(name, sizeof name, "FTMPI_COLL_%s", collective);
    if (algorithm && *algorithm)
        setenv(name, algorithm, 1);
    else
        unsetenv(name);
}

#endif
