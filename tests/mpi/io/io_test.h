/* Helpers of the MPI-IO tests: a check that ends the job with one line, the
 * error class of a code, and a scratch file name every rank agrees on
 * (rank 0 chooses it, under $TMPDIR or /tmp, and broadcasts it).
 * Plain C, header only. */
#ifndef IO_TEST_H
#define IO_TEST_H

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        if (!(cond)) {                                                           \
            int r_ = -1;                                                         \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                  \
            fprintf(stderr, "rank %d: %s:%d: FAILED: ", r_, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                        \
            fprintf(stderr, "\n");                                               \
            fflush(stderr);                                                      \
            MPI_Abort(MPI_COMM_WORLD, 1);                                        \
        }                                                                        \
    } while (0)

static inline int io_class(int code) {
    int c = code;
    if (code != MPI_SUCCESS) MPI_Error_class(code, &c);
    return c;
}

#define CHECK_MPI(call)                                                                  \
    do {                                                                                 \
        int rc_ = (call);                                                                \
        CHECK(rc_ == MPI_SUCCESS, "%s returned %d (class %d)", #call, rc_, io_class(rc_)); \
    } while (0)

#define CHECK_CLASS(call, cls)                                                              \
    do {                                                                                    \
        int rc_ = (call);                                                                   \
        CHECK(io_class(rc_) == (cls), "%s gave class %d, expected %s (%d)", #call, io_class(rc_), #cls, cls); \
    } while (0)

/* A fresh file name under $TMPDIR (or /tmp), the same at every rank of comm. */
static inline void io_scratch_name(MPI_Comm comm, const char *tag, char *name, int len) {
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(name, (size_t)len, "%s/ftmpi-io-%s-%ld", dir && *dir ? dir : "/tmp", tag, (long)getpid());
    }
    MPI_Bcast(name, len, MPI_CHAR, 0, comm);
}

/* The whole file as bytes (plain POSIX: an independent check of what MPI wrote). */
static inline long io_slurp(const char *name, unsigned char *buf, long max) {
    FILE *f = fopen(name, "rb");
    if (!f) return -1;
    long n = (long)fread(buf, 1, (size_t)max, f);
    fclose(f);
    return n;
}

#endif
