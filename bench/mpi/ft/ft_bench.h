/* What the fault-tolerance benchmarks share (plain MPI, header only, so they
 * build with any MPI): the statistics of ../stats.h, the opening of main, a
 * clock common to the ranks of one host, and integer knobs from the
 * environment. */
#ifndef BENCH_MPI_FT_BENCH_H
#define BENCH_MPI_FT_BENCH_H

#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#include "../stats.h"

/* MPI_Init, then this rank and the world's size. */
static inline void ft_bench_init(int *argc, char ***argv, int *rank, int *size) {
    MPI_Init(argc, argv);
    (void)bench_sizes; /* stats.h's, unused by these benchmarks */
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

/* CLOCK_MONOTONIC in seconds: on one host, the same clock at every rank. */
static inline double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The integer in environment variable `name`, or fallback when unset. */
static inline int env_int(const char *name, int fallback) {
    const char *v = getenv(name);
    return v && *v ? atoi(v) : fallback;
}

#endif
