/* Shared by the datatype tests: fail loudly with
 * one line saying what was wrong, and end the job. */
#ifndef DT_CHECK_H
#define DT_CHECK_H

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

/* The error class a call returned (ERRORS_RETURN must be set). */
static inline int error_class(int rc) {
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

#endif
