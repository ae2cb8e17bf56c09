/* An application kernel for the failure-free overhead of
 * fault tolerance: 1-D-decomposed Jacobi relaxation of Laplace's equation
 * on an N x N grid (rows in blocks over the ranks), each iteration a halo
 * exchange of one row with each neighbour (Sendrecv) and an Allreduce of
 * the residual, as a real solver does. Prints one RESULT line (stats.h):
 * time per iteration, median and spread over BENCH_SAMPLES samples of
 * BENCH_ITERS iterations. Plain MPI. Knob: BENCH_N (grid side, 512). */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "ft_bench.h"

int main(int argc, char **argv) {
    int rank, size;
    ft_bench_init(&argc, &argv, &rank, &size);
    const int n = env_int("BENCH_N", 512), samples = env_int("BENCH_SAMPLES", 15), iters = env_int("BENCH_ITERS", 50);
    const int rows = n / size + (rank < n % size), w = n + 2;
    double *u = calloc((size_t)(rows + 2) * w, sizeof(double)), *next = calloc((size_t)(rows + 2) * w, sizeof(double));
    double *v = malloc(sizeof(double) * (size_t)samples);
    if (!u || !next || !v) MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        for (int j = 0; j < w; ++j) u[j] = next[j] = 1.0; /* the hot top edge */
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    double residual = 0;

    for (int s = -1; s < samples; ++s) { /* sample -1 warms up */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int it = 0; it < iters; ++it) {
            MPI_Sendrecv(&u[1 * w], w, MPI_DOUBLE, up, 1, &u[(rows + 1) * w], w, MPI_DOUBLE, down, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            MPI_Sendrecv(&u[rows * w], w, MPI_DOUBLE, down, 2, &u[0], w, MPI_DOUBLE, up, 2, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            if (rank == 0)
                for (int j = 0; j < w; ++j) u[j] = 1.0;
            double r = 0;
            for (int i = 1; i <= rows; ++i)
                for (int j = 1; j <= n; ++j) {
                    double x = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
                    r += (x - u[i * w + j]) * (x - u[i * w + j]);
                    next[i * w + j] = x;
                }
            for (int i = 1; i <= rows; ++i) memcpy(&u[i * w + 1], &next[i * w + 1], (size_t)n * sizeof(double));
            MPI_Allreduce(&r, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double t = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (s >= 0) v[s] = t / iters * 1e6;
    }
    if (rank == 0) {
        printf("# kernel: residual %.6g after %d iterations\n", sqrt(residual), (samples + 1) * iters);
        bench_report("jacobi", size, n, "us", v, samples);
    }
    free(u), free(next), free(v);
    MPI_Finalize();
    return 0;
}
