/* Point-to-point between ranks 0 and 1 (others idle):
 *   pingpong  — one-way latency (half the round trip) at 0 B … 4 MiB;
 *   bandwidth — streaming: a window of BENCH_WINDOW (16) non-blocking sends,
 *               one zero-byte acknowledgement per window, in MB/s (10^6 B/s).
 * Plain MPI: the same source builds with libftmpi, Open MPI and MPICH.
 * Samples as in coll.c (stats.h): median and 10th/90th percentiles.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int rank, size;

/* Seconds for k round trips of `bytes` between ranks 0 and 1. */
static double round_trips(char *buf, long bytes, int k) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; ++i) {
        if (rank == 0) {
            MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

/* Seconds for k windows of `window` messages of `bytes` from 0 to 1. */
static double stream(char *buf, long bytes, int window, int k, MPI_Request *req) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < k; ++i) {
        if (rank == 0) {
            for (int w = 0; w < window; ++w) MPI_Isend(buf, (int)bytes, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
            MPI_Recv(NULL, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int w = 0; w < window; ++w) MPI_Irecv(buf, (int)bytes, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
            MPI_Send(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "pingpong: needs 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    int do_latency = argc < 2, do_bandwidth = argc < 2;
    for (int i = 1; i < argc; ++i) {
        do_latency |= strcmp(argv[i], "pingpong") == 0;
        do_bandwidth |= strcmp(argv[i], "bandwidth") == 0;
    }
    const int samples = (int)bench_env_double("BENCH_SAMPLES", 15);
    const int window = (int)bench_env_double("BENCH_WINDOW", 16);
    static const long defaults[] = {0, 8, 1024, 8192, 65536, 1048576, 4194304};
    long sizes[32];
    const int nsizes = bench_sizes(defaults, 7, sizes, 32);
    long largest = 1;
    for (int s = 0; s < nsizes; ++s) largest = sizes[s] > largest ? sizes[s] : largest;
    char *buf = calloc((size_t)largest, 1);
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)window);
    double *v = malloc(sizeof(double) * (size_t)samples);

    for (int s = 0; do_latency && s < nsizes; ++s) {
        round_trips(buf, sizes[s], 10); /* warm-up */
        const int k = bench_plan(round_trips(buf, sizes[s], 1));
        for (int i = 0; i < samples; ++i) v[i] = round_trips(buf, sizes[s], k) / k / 2 * 1e6;
        if (rank == 0) bench_report("pingpong", size, sizes[s], "us", v, samples);
    }
    for (int s = 0; do_bandwidth && s < nsizes; ++s) {
        if (sizes[s] == 0) continue;
        stream(buf, sizes[s], window, 2, req);
        const int k = bench_plan(stream(buf, sizes[s], window, 1, req));
        for (int i = 0; i < samples; ++i)
            v[i] = (double)sizes[s] * window * k / stream(buf, sizes[s], window, k, req) / 1e6;
        if (rank == 0) bench_report("bandwidth", size, sizes[s], "MB/s", v, samples);
    }
    free(v);
    free(req);
    free(buf);
    MPI_Finalize();
    return 0;
}
