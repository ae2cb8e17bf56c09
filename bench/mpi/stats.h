/* Benchmark statistics shared by the plain-MPI
 * benchmarks: every measurement is a set of samples, reported as the median
 * and the 10th/90th percentiles (the spread), one line per measurement:
 *
 *   RESULT bench=<name> np=<ranks> bytes=<size> unit=<us|MB/s> median=<m> p10=<a> p90=<b> samples=<n>
 *
 * so bench/mpi/run.sh can put the three implementations side by side. */
#ifndef BENCH_MPI_STATS_H
#define BENCH_MPI_STATS_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* A number from the environment, or the fallback when unset or empty. */
static inline double bench_env_double(const char *name, double fallback) {
    const char *v = getenv(name);
    return v && *v ? atof(v) : fallback;
}

/* How many repetitions make one sample last about BENCH_SAMPLE_MS, from the
 * time of one measured first try (rank 0 decides for all). */
static inline int bench_plan(double once) {
    const double target = bench_env_double("BENCH_SAMPLE_MS", 2.0) / 1000.0;
    int k = once > 0 ? (int)(target / once) : 1000;
    if (k < 1) k = 1;
    if (k > 20000) k = 20000;
    MPI_Bcast(&k, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return k;
}

static int bench_compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double bench_percentile(const double *sorted, int n, double p) {
    if (n == 0) return 0;
    double at = p * (n - 1);
    int lo = (int)at;
    int hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

static void bench_report(const char *bench, int np, long bytes, const char *unit, double *samples, int n) {
    qsort(samples, (size_t)n, sizeof(double), bench_compare);
    printf("RESULT bench=%s np=%d bytes=%ld unit=%s median=%.4g p10=%.4g p90=%.4g samples=%d\n", bench, np, bytes, unit,
           bench_percentile(samples, n, 0.5), bench_percentile(samples, n, 0.1), bench_percentile(samples, n, 0.9), n);
    fflush(stdout);
}

/* Message sizes from BENCH_SIZES="8,1024,..." or the given defaults. */
static int bench_sizes(const long *defaults, int ndefaults, long *out, int max) {
    const char *env = getenv("BENCH_SIZES");
    if (!env || !*env) {
        for (int i = 0; i < ndefaults && i < max; ++i) out[i] = defaults[i];
        return ndefaults < max ? ndefaults : max;
    }
    int n = 0;
    char *end;
    for (const char *p = env; *p && n < max; p = *end ? end + 1 : end) {
        out[n++] = strtol(p, &end, 10);
        if (end == p) break;
    }
    return n;
}

#endif
