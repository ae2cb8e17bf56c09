/* Helpers of the MPI-IO tests: the checks of support/check.h (a failed one
 * ends the job), a scratch file name every rank agrees on (rank 0 chooses
 * it, under $TMPDIR or /tmp, and broadcasts it), the opening every test on
 * MPI_COMM_WORLD shares, and a plain POSIX read of a file. Plain C, header
 * only. */
#ifndef IO_TEST_H
#define IO_TEST_H

#include "support/check.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* MPI_Init, this rank and the size of MPI_COMM_WORLD, and the scratch name
 * for `tag`. */
static inline void io_test_init(int *argc, char ***argv, const char *tag, int *rank, int *size, char *name, int len) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    io_scratch_name(MPI_COMM_WORLD, tag, name, len);
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
