/* Latency of the ULFM recovery calls on a communicator
 * without failures (the cost a program pays at each check):
 *   barrier MPI_Barrier on the same communicator, the same way: the
 *           reference (one synchronization of every rank; an agreement
 *           needs at least two)
 *   agree   MPIX_Comm_agree, back to back (per call, slowest rank)
 *   shrink  MPIX_Comm_shrink of a duplicate of MPI_COMM_WORLD (per call)
 *   revoke  rank 0 revokes a fresh duplicate while every other rank waits
 *           in a receive on it: time until the last rank's receive returns
 *           MPIX_ERR_REVOKED (one host: CLOCK_MONOTONIC is common to all)
 * One RESULT line each (stats.h, bytes=0, unit us). BENCH_SAMPLES (15),
 * BENCH_K (calls per agree/shrink sample, 10). */
#include <mpi-ext.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#include "ft_bench.h"

/* The slowest rank's time (collective on world). */
static double slowest(double t) {
    double m = 0;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

int main(int argc, char **argv) {
    int rank, size;
    ft_bench_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int samples = env_int("BENCH_SAMPLES", 15), k = env_int("BENCH_K", 10);
    double *v = malloc(sizeof(double) * (size_t)samples);
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int bad = 0;

    for (int s = -1; s < samples; ++s) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now();
        for (int i = 0; i < k; ++i) bad |= MPI_Barrier(c) != MPI_SUCCESS;
        double t = slowest(now() - t0);
        if (s >= 0) v[s] = t / k * 1e6;
    }
    if (rank == 0) bench_report("barrier", size, 0, "us", v, samples);

    for (int s = -1; s < samples; ++s) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now();
        for (int i = 0; i < k; ++i) {
            int flag = 1;
            bad |= MPIX_Comm_agree(c, &flag) != MPI_SUCCESS || flag != 1;
        }
        double t = slowest(now() - t0);
        if (s >= 0) v[s] = t / k * 1e6;
    }
    if (rank == 0) bench_report("agree", size, 0, "us", v, samples);

    for (int s = -1; s < samples; ++s) {
        MPI_Comm made[64];
        int kk = k < 64 ? k : 64;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now();
        for (int i = 0; i < kk; ++i) bad |= MPIX_Comm_shrink(c, &made[i]) != MPI_SUCCESS;
        double t = slowest(now() - t0);
        for (int i = 0; i < kk; ++i) MPI_Comm_free(&made[i]);
        if (s >= 0) v[s] = t / kk * 1e6;
    }
    if (rank == 0) bench_report("shrink", size, 0, "us", v, samples);

    for (int s = -1; s < samples && size > 1; ++s) {
        MPI_Comm r;
        MPI_Comm_dup(MPI_COMM_WORLD, &r);
        MPI_Comm_set_errhandler(r, MPI_ERRORS_RETURN);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now(), seen = 0;
        if (rank == 0) {
            bad |= MPIX_Comm_revoke(r) != MPI_SUCCESS;
        } else {
            int x, rc = MPI_Recv(&x, 1, MPI_INT, 0, 0, r, MPI_STATUS_IGNORE), cls = -1;
            MPI_Error_class(rc, &cls);
            bad |= cls != MPIX_ERR_REVOKED;
            seen = now();
        }
        MPI_Bcast(&t0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        double last = slowest(seen);
        MPI_Comm_free(&r);
        if (s >= 0) v[s] = (last - t0) * 1e6;
    }
    if (rank == 0 && size > 1) bench_report("revoke", size, 0, "us", v, samples);

    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (rank == 0 && bad) fprintf(stderr, "recovery_latency: a call failed or agreed on a wrong value\n");
    MPI_Comm_free(&c);
    free(v);
    MPI_Finalize();
    return bad;
}
