/* Collective latency: Barrier, Bcast, Allreduce
 * (double SUM) and Alltoall at 8 B … 1 MiB (Alltoall: bytes per peer, as
 * the OSU benchmarks count), for whatever number of ranks it runs with.
 * Plain MPI: the same source builds with libftmpi, Open MPI and MPICH.
 *
 * A sample is k back-to-back calls (k chosen so a sample lasts about
 * BENCH_SAMPLE_MS, 2 ms by default) between barriers; its time per call is
 * the slowest rank's. BENCH_SAMPLES samples (15) per point, fewer when a
 * point would take more than BENCH_POINT_SECONDS (1.5 s), e.g. MPICH's
 * spinning ranks on an oversubscribed host.
 *
 *   coll [barrier] [bcast] [allreduce] [alltoall]     (default: all four)
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int rank, size;

typedef void (*op_fn)(long bytes, void *a, void *b);

static void run_barrier(long bytes, void *a, void *b) {
    (void)bytes, (void)a, (void)b;
    MPI_Barrier(MPI_COMM_WORLD);
}
static void run_bcast(long bytes, void *a, void *b) {
    (void)b;
    MPI_Bcast(a, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
}
static void run_allreduce(long bytes, void *a, void *b) {
    MPI_Allreduce(a, b, (int)(bytes / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static void run_alltoall(long bytes, void *a, void *b) {
    MPI_Alltoall(a, (int)bytes, MPI_BYTE, b, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
}

/* Per-call seconds of one sample of k calls, the slowest rank's. */
static double sample(op_fn op, long bytes, void *a, void *b, int k) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; ++i) op(bytes, a, b);
    double mine = (MPI_Wtime() - t0) / k, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

static void measure(const char *name, op_fn op, long bytes) {
    const long per_rank = strcmp(name, "alltoall") == 0 ? bytes * size : bytes;
    void *a = calloc((size_t)(per_rank > 0 ? per_rank : 1), 1), *b = calloc((size_t)(per_rank > 0 ? per_rank : 1), 1);
    const double target = bench_env_double("BENCH_SAMPLE_MS", 2.0) / 1000.0;
    const double budget = bench_env_double("BENCH_POINT_SECONDS", 1.5);
    int samples = (int)bench_env_double("BENCH_SAMPLES", 15);

    double once = sample(op, bytes, a, b, 1); /* warm-up: connections, buffers */
    once = sample(op, bytes, a, b, 1);
    int k = once > 0 ? (int)(target / once) : 1000;
    if (k < 1) k = 1;
    if (k > 10000) k = 10000;
    if (once * k * samples > budget) samples = (int)(budget / (once * k));
    if (samples < 5) samples = 5;
    MPI_Bcast(&k, 1, MPI_INT, 0, MPI_COMM_WORLD); /* everyone runs rank 0's plan */
    MPI_Bcast(&samples, 1, MPI_INT, 0, MPI_COMM_WORLD);

    double *us = malloc(sizeof(double) * (size_t)samples);
    for (int s = 0; s < samples; ++s) us[s] = sample(op, bytes, a, b, k) * 1e6;
    if (rank == 0) bench_report(name, size, bytes, "us", us, samples);
    free(us);
    free(a);
    free(b);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static const long defaults[] = {8, 1024, 65536, 1048576};
    long sizes[32];
    const int nsizes = bench_sizes(defaults, 4, sizes, 32);
    static const struct {
        const char *name;
        op_fn op;
    } ops[] = {
        {"barrier", run_barrier}, {"bcast", run_bcast}, {"allreduce", run_allreduce}, {"alltoall", run_alltoall}};

    for (int o = 0; o < 4; ++o) {
        int wanted = argc < 2;
        for (int i = 1; i < argc; ++i) wanted |= strcmp(argv[i], ops[o].name) == 0;
        if (!wanted) continue;
        if (ops[o].op == run_barrier) {
            measure(ops[o].name, ops[o].op, 0);
            continue;
        }
        for (int s = 0; s < nsizes; ++s) measure(ops[o].name, ops[o].op, sizes[s]);
    }
    MPI_Finalize();
    return 0;
}
