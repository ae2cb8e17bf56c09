/* One-sided communication, rank 0 the origin and rank 1 the target unless
 * said otherwise (other ranks take part in fences and barriers only):
 *
 *   rma_put_lat, rma_get_lat     passive target: MPI_Put / MPI_Get then
 *                                MPI_Win_flush, inside one lock epoch (us)
 *   rma_put_bw, rma_get_bw       passive target: BENCH_WINDOW (16) operations
 *                                then one flush (MB/s, 10^6 B/s)
 *   rma_put_fence, rma_get_fence active target: one epoch per operation,
 *                                fence - put/get - fence on every rank (us)
 *   rma_acc_lat                  MPI_Accumulate (MPI_SUM on doubles) then
 *                                flush (us)
 *   rma_fetch_and_op             every rank but 0 adds 1 to one counter at
 *                                rank 0 with MPI_Fetch_and_op (long) and
 *                                flushes, under lock_all: aggregate ops/s
 *
 * Name benchmarks on the command line to run only those (default: all).
 * Sizes from BENCH_SIZES (default 8 B, 1 KiB, 64 KiB, 1 MiB); samples as the
 * other benchmarks (stats.h): one sample is k back-to-back operations
 * lasting about BENCH_SAMPLE_MS, timed between barriers, the origin's time
 * (the slowest origin's for fetch_and_op). Plain MPI: the same source builds
 * with libftmpi, Open MPI and MPICH. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int rank, size, window;
static MPI_Win win;
static char *origin_buf;

enum kind { put_lat, get_lat, put_bw, get_bw, put_fence, get_fence, acc_lat, fetch_and_op, nkinds };
static const char *names[nkinds] = {"rma_put_lat",   "rma_get_lat",   "rma_put_bw",  "rma_get_bw",
                                    "rma_put_fence", "rma_get_fence", "rma_acc_lat", "rma_fetch_and_op"};

static void transfer(enum kind kind, long bytes, MPI_Aint disp) {
    if (kind == put_lat || kind == put_bw || kind == put_fence)
        MPI_Put(origin_buf, (int)bytes, MPI_BYTE, 1, disp, (int)bytes, MPI_BYTE, win);
    else
        MPI_Get(origin_buf, (int)bytes, MPI_BYTE, 1, disp, (int)bytes, MPI_BYTE, win);
}

/* Seconds for k repetitions of `kind` at `bytes` (rank 0's time, or the
 * slowest origin's for fetch_and_op), the same at every rank. */
static double timed(enum kind kind, long bytes, int k) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), t = 0;
    switch (kind) {
    case put_lat:
    case get_lat:
    case acc_lat:
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
            for (int i = 0; i < k; ++i) {
                if (kind == acc_lat)
                    MPI_Accumulate(origin_buf, (int)(bytes / 8), MPI_DOUBLE, 1, 0, (int)(bytes / 8), MPI_DOUBLE,
                                   MPI_SUM, win);
                else
                    transfer(kind, bytes, 0);
                MPI_Win_flush(1, win);
            }
            MPI_Win_unlock(1, win);
        }
        break;
    case put_bw:
    case get_bw:
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
            for (int i = 0; i < k; ++i) {
                for (int w = 0; w < window; ++w) transfer(kind, bytes, (MPI_Aint)w * bytes);
                MPI_Win_flush(1, win);
            }
            MPI_Win_unlock(1, win);
        }
        break;
    case put_fence:
    case get_fence:
        for (int i = 0; i < k; ++i) {
            MPI_Win_fence(0, win);
            if (rank == 0) transfer(kind, bytes, 0);
            MPI_Win_fence(0, win);
        }
        break;
    case fetch_and_op: {
        const long one = 1;
        long old;
        MPI_Win_lock_all(0, win);
        if (rank != 0)
            for (int i = 0; i < k; ++i) {
                MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
                MPI_Win_flush(0, win);
            }
        MPI_Win_unlock_all(win);
        double mine = rank != 0 ? MPI_Wtime() - t0 : 0;
        MPI_Allreduce(&mine, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        return t;
    }
    default: break;
    }
    t = MPI_Wtime() - t0;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

static void run(enum kind kind, long bytes, int samples, double *v) {
    timed(kind, bytes, 3); /* warm-up */
    const int k = bench_plan(timed(kind, bytes, 1));
    const double budget = bench_env_double("BENCH_POINT_SECONDS", 1.5);
    double spent = 0;
    int n = 0;
    while (n < samples) {
        const double t = timed(kind, bytes, k);
        spent += t;
        if (kind == fetch_and_op)
            v[n++] = t > 0 ? (double)k * (size - 1) / t : 0;
        else if (kind == put_bw || kind == get_bw)
            v[n++] = t > 0 ? (double)bytes * window * k / t / 1e6 : 0;
        else
            v[n++] = t / k * 1e6;
        if (spent > budget) break; /* the same decision everywhere: t is the same at every rank */
    }
    if (rank == 0) {
        const char *unit = kind == fetch_and_op ? "ops/s" : kind == put_bw || kind == get_bw ? "MB/s" : "us";
        bench_report(names[kind], size, kind == fetch_and_op ? (long)sizeof(long) : bytes, unit, v, n);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "rma: needs 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    int wanted[nkinds];
    for (int k = 0; k < nkinds; ++k) wanted[k] = argc < 2;
    for (int i = 1; i < argc; ++i)
        for (int k = 0; k < nkinds; ++k) wanted[k] |= strcmp(argv[i], names[k]) == 0;
    const int samples = (int)bench_env_double("BENCH_SAMPLES", 15);
    window = (int)bench_env_double("BENCH_WINDOW", 16);
    if (window < 1) window = 1;
    static const long defaults[] = {8, 1024, 65536, 1048576};
    long sizes[32];
    const int nsizes = bench_sizes(defaults, 4, sizes, 32);
    long largest = 8;
    for (int s = 0; s < nsizes; ++s) largest = sizes[s] > largest ? sizes[s] : largest;
    origin_buf = calloc((size_t)largest, 1);
    char *base = NULL;
    MPI_Win_allocate((MPI_Aint)largest * window, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    memset(base, 0, (size_t)largest * (size_t)window);
    double *v = malloc(sizeof(double) * (size_t)(samples > 0 ? samples : 1));

    for (int kind = 0; kind < nkinds; ++kind) {
        if (!wanted[kind]) continue;
        if (kind == fetch_and_op) {
            run(fetch_and_op, 8, samples, v);
            continue;
        }
        for (int s = 0; s < nsizes; ++s) {
            if (sizes[s] <= 0) continue;                        /* zero-byte RMA measures nothing here */
            if (kind == acc_lat && sizes[s] % 8 != 0) continue; /* whole doubles */
            run((enum kind)kind, sizes[s], samples, v);
        }
    }
    free(v);
    MPI_Win_free(&win);
    free(origin_buf);
    MPI_Finalize();
    return 0;
}
