/* Helpers shared by the p2p test programs: a failed check prints one line
 * saying what was wrong (with the rank) and aborts the job. */
#ifndef FTMPI_TEST_P2P_CHECK_H
#define FTMPI_TEST_P2P_CHECK_H

#include <mpi.h>
#include <stdio.h>

static int check_rank(void) {
    int rank = -1, init = 0;
    MPI_Initialized(&init);
    if (init) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", check_rank(), __FILE__, \
                    __LINE__, #cond);                                                      \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n");                                                         \
            fflush(stderr);                                                                \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                  \
        }                                                                                  \
    } while (0)

#define CHECK_MPI(call) CHECK((call) == MPI_SUCCESS, "%s", #call)

#endif
