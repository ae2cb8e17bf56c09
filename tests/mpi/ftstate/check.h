/* Checks for the ftstate tests: one line naming the rank,
 * the file, the line and what was wrong, then exit 1 (this rank only: with
 * failures around, a test must not depend on MPI to report its own). */
#ifndef FTSTATE_CHECK_H
#define FTSTATE_CHECK_H

#include <mpi.h>
#include <mpi-ext.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int check_rank_ = -1;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "rank %d: %s:%d: FAILED: ", check_rank_, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fprintf(stderr, "\n");                                                        \
            fflush(stdout);                                                               \
            fflush(stderr);                                                               \
            _exit(1);                                                                     \
        }                                                                                 \
    } while (0)

static inline int error_class_of(int code) {
    int c = code;
    if (code != MPI_SUCCESS) MPI_Error_class(code, &c);
    return c;
}

#define CHECK_MPI(call)                                                                    \
    do {                                                                                   \
        int rc_ = (call);                                                                  \
        CHECK(rc_ == MPI_SUCCESS, "%s returned %d (class %d)", #call, rc_, error_class_of(rc_)); \
    } while (0)

#define CHECK_CLASS(call, cls)                                                             \
    do {                                                                                   \
        int rc_ = (call);                                                                  \
        CHECK(error_class_of(rc_) == (cls), "%s gave class %d, expected %s (%d)", #call,   \
              error_class_of(rc_), #cls, (cls));                                           \
    } while (0)

/* An int attribute of comm that must be present. */
static inline int int_attr(MPI_Comm comm, int key) {
    int *value = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(comm, key, &value, &flag));
    CHECK(flag && value != NULL, "attribute %d missing", key);
    return *value;
}

/* Dies now, for real: no handler, no MPI_Finalize, no bye to the peers. */
static inline void die_by_sigkill(void) {
    fflush(stdout);
    fflush(stderr);
    raise(SIGKILL);
    _exit(137);
}

#endif
