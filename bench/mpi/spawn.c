/* Process creation: `spawn`, the time from MPI_Comm_spawn of N copies of
 * this program (root 0 of MPI_COMM_WORLD) until both sides have
 * MPI_Comm_disconnect-ed, which includes the children's start and MPI_Init
 * (µs; "bytes" is N, the children per spawn, from BENCH_SIZES, default 1 2 4).
 * The children disconnect and finalize at once. Fewer samples than the
 * other benchmarks (BENCH_SAMPLES, default 7): each one starts processes. */
#include "stats.h"

#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) MPI_Abort(MPI_COMM_WORLD, 1);
    path[n] = '\0';
    const long defaults[] = {1, 2, 4};
    long counts[16];
    const int ncounts = bench_sizes(defaults, 3, counts, 16);
    const int samples = (int)bench_env_double("BENCH_SAMPLES", 7);
    double *times = malloc(sizeof(double) * (size_t)(samples > 0 ? samples : 1));
    for (int c = 0; c < ncounts; ++c) {
        if (counts[c] < 1) continue;
        for (int s = 0; s < samples; ++s) {
            MPI_Barrier(MPI_COMM_WORLD);
            const double t0 = MPI_Wtime();
            MPI_Comm inter;
            int rc = MPI_Comm_spawn(path, MPI_ARGV_NULL, (int)counts[c], MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                                    MPI_ERRCODES_IGNORE);
            if (rc != MPI_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 1);
            MPI_Comm_disconnect(&inter);
            double mine = (MPI_Wtime() - t0) * 1e6, slowest = 0;
            MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            times[s] = slowest;
        }
        if (rank == 0) bench_report("spawn", np, counts[c], "us", times, samples);
    }
    free(times);
    MPI_Finalize();
    return 0;
}
