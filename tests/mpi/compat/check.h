/* Shared by the compatibility tests: fail loudly with one line saying what
 * was wrong, and end the job. */
#ifndef COMPAT_CHECK_H
#define COMPAT_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (!(cond)) {                                                            \
            int check_rank_ = -1;                                                 \
            MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                          \
            fprintf(stderr, "rank %d: %s:%d: ", check_rank_, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                         \
            fprintf(stderr, "\n");                                                \
            fflush(stderr);                                                       \
            MPI_Abort(MPI_COMM_WORLD, 1);                                         \
        }                                                                         \
    } while (0)

#define CHECK_MPI(call)                                                      \
    do {                                                                     \
        int check_rc_ = (call);                                              \
        CHECK(check_rc_ == MPI_SUCCESS, "%s returned %d", #call, check_rc_); \
    } while (0)

/* The call must fail with this error class. */
#define CHECK_FAILS(call, expected_class)                                              \
    do {                                                                               \
        int check_rc_ = (call), check_class_ = -1;                                     \
        CHECK(check_rc_ != MPI_SUCCESS, "%s succeeded, expected an error", #call);     \
        MPI_Error_class(check_rc_, &check_class_);                                     \
        CHECK(check_class_ == (expected_class), "%s: error class %d, expected %s (%d)", \
              #call, check_class_, #expected_class, (expected_class));                 \
    } while (0)

#endif
