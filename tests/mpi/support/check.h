/* Checks shared by the MPI test programs (plain C, header only; include it as
 * "support/check.h"). A failed check prints one line — the rank, the file,
 * the line, "FAILED:" and what was wrong — and then ends:
 *
 *   the whole job (MPI_Abort), by default: in a test without failures a wrong
 *   answer at any rank is the test's failure;
 *   only this rank (exit status 1), when the program defines
 *   CHECK_ENDS_RANK_ONLY before including this: with processes failing on
 *   purpose the job must not depend on MPI to report a test failure, and the
 *   launcher fails a job one of whose ranks exits non-zero by itself.
 *
 *   CHECK(cond, fmt, ...)      cond must hold
 *   CHECK_MPI(call)            call must return MPI_SUCCESS
 *   CHECK_CLASS(call, cls)     call must end with error class cls
 *   error_class(code)          a return code's class (MPI_SUCCESS stays so)
 *   error_class_name(code)     the name of the classes failure tests meet
 *   check_rank_                this process's MPI_COMM_WORLD rank (-1 before
 *                              MPI_Init), set at the first check or by the test
 *   test_init(&argc, &argv, &rank, &size)
 *                              MPI_Init, then this rank and the world's size */
#ifndef MPI_TEST_SUPPORT_CHECK_H
#define MPI_TEST_SUPPORT_CHECK_H

#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int check_rank_ = -1;

static inline int check_rank(void) {
    int init = 0, fini = 0;
    if (check_rank_ < 0) {
        MPI_Initialized(&init);
        MPI_Finalized(&fini);
        if (init && !fini) MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);
    }
    return check_rank_;
}

static inline void check_end_(void) {
    fflush(stdout);
    fflush(stderr);
#ifndef CHECK_ENDS_RANK_ONLY
    MPI_Abort(MPI_COMM_WORLD, 1);
#endif
    _exit(1);
}

/* The opening most test programs share. */
static inline void test_init(int *argc, char ***argv, int *rank, int *size) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "rank %d: %s:%d: FAILED: ", check_rank(), __FILE__, __LINE__);                             \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
            check_end_();                                                                                              \
        }                                                                                                              \
    } while (0)

static inline int error_class(int code) {
    int c = code;
    if (code != MPI_SUCCESS) MPI_Error_class(code, &c);
    return c;
}

static inline const char *error_class_name(int code) {
    switch (error_class(code)) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
#ifdef MPIX_ERR_PROC_FAILED
    case MPIX_ERR_PROC_FAILED: return "MPIX_ERR_PROC_FAILED";
    case MPIX_ERR_PROC_FAILED_PENDING: return "MPIX_ERR_PROC_FAILED_PENDING";
    case MPIX_ERR_REVOKED: return "MPIX_ERR_REVOKED";
#endif
    case MPI_ERR_RANK: return "MPI_ERR_RANK";
    case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS";
    default: return "another class";
    }
}

#define CHECK_MPI(call)                                                                                                \
    do {                                                                                                               \
        int check_rc_ = (call);                                                                                        \
        CHECK(check_rc_ == MPI_SUCCESS, "%s returned %d (class %d, %s)", #call, check_rc_, error_class(check_rc_),     \
              error_class_name(check_rc_));                                                                            \
    } while (0)

#define CHECK_CLASS(call, cls)                                                                                         \
    do {                                                                                                               \
        int check_rc_ = (call);                                                                                        \
        CHECK(error_class(check_rc_) == (cls), "%s gave class %d (%s), expected %s (%d)", #call,                       \
              error_class(check_rc_), error_class_name(check_rc_), #cls, (cls));                                       \
    } while (0)

#endif
