/* MPI-IO bandwidth of a block-distributed array (rank r's block at offset
 * r * bytes) to one local file, the checkpoint pattern of the
 * fault-tolerance tests, two ways:
 *   io_write_all / io_read_all        a view per rank (displacement r * bytes)
 *                                     and MPI_File_write_all / read_all through
 *                                     the individual file pointer
 *   io_write_at_all / io_read_at_all  MPI_File_write_at_all / read_at_all at
 *                                     explicit offsets, default view
 * Reported as aggregate MB/s (10^6 B/s over all ranks) for BENCH_SIZES bytes
 * per rank (default 64 KiB, 1 MiB, 16 MiB); a sample is one call between
 * barriers, its time the slowest rank's. Name benchmarks on the command
 * line to run only those (default: all). Plain MPI: the same source builds
 * with libftmpi, Open MPI (ROMIO/OMPIO) and MPICH.
 *
 *   BENCH_IO_DIR   directory of the file (default $TMPDIR or /tmp)
 *   BENCH_IO_SYNC  1: MPI_File_sync inside each timed write (default 0:
 *                  the page cache absorbs writes, as in most peers' runs)
 *   BENCH_SAMPLES, BENCH_POINT_SECONDS as the other benchmarks
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats.h"

/* Seconds of one collective call, the slowest rank's. With `view` the file
 * has this rank's view (set by the caller) and the call goes through the
 * individual file pointer, moved back to the view's start first. */
static double timed(MPI_File fh, int write, int view, long bytes, char *buf, int rank, int sync) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    const MPI_Offset at = (MPI_Offset)rank * bytes;
    if (view) MPI_File_seek(fh, 0, MPI_SEEK_SET);
    if (write && view)
        MPI_File_write_all(fh, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    else if (write)
        MPI_File_write_at_all(fh, at, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    else if (view)
        MPI_File_read_all(fh, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    else
        MPI_File_read_at_all(fh, at, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
    if (write && sync) MPI_File_sync(fh);
    double mine = MPI_Wtime() - t0, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long defaults[] = {64L << 10, 1L << 20, 16L << 20};
    long sizes[16];
    const int nsizes = bench_sizes(defaults, 3, sizes, 16);
    const int sync = (int)bench_env_double("BENCH_IO_SYNC", 0);
    const int wanted = (int)bench_env_double("BENCH_SAMPLES", 9);
    const double budget = bench_env_double("BENCH_POINT_SECONDS", 3.0);

    char name[512];
    if (rank == 0) {
        const char *dir = getenv("BENCH_IO_DIR");
        if (!dir || !*dir) dir = getenv("TMPDIR");
        snprintf(name, sizeof name, "%s/bench-io-write-all-%ld", dir && *dir ? dir : "/tmp", (long)getpid());
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS) {
        if (rank == 0) fprintf(stderr, "io_write_all: cannot open %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    static const char *names[2][2] = {{"io_read_at_all", "io_write_at_all"}, {"io_read_all", "io_write_all"}};
    int chosen[2][2];
    for (int v = 0; v < 2; ++v)
        for (int w = 0; w < 2; ++w) {
            chosen[v][w] = argc < 2;
            for (int i = 1; i < argc; ++i) chosen[v][w] |= strcmp(argv[i], names[v][w]) == 0;
        }
    for (int s = 0; s < nsizes; ++s) {
        const long bytes = sizes[s];
        char *buf = malloc((size_t)(bytes > 0 ? bytes : 1));
        memset(buf, rank + 1, (size_t)(bytes > 0 ? bytes : 1));
        for (int view = 1; view >= 0; --view) {
            /* The block-distributed view: this rank's bytes start at rank * bytes. */
            MPI_File_set_view(fh, view ? (MPI_Offset)rank * bytes : 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
            for (int write = 1; write >= 0; --write) {
                if (!chosen[view][write]) continue;
                double samples[64];
                int n = 0;
                double spent = 0;
                timed(fh, write, view, bytes, buf, rank, sync); /* warm-up: file extended, caches filled */
                while (n < wanted && n < 64) {
                    const double t = timed(fh, write, view, bytes, buf, rank, sync);
                    spent += t;
                    samples[n++] = t > 0 ? (double)bytes * size / t / 1e6 : 0;
                    /* Every rank stops after the same sample (rank 0 decides). */
                    int stop = spent > budget;
                    MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
                    if (stop) break;
                }
                if (rank == 0) bench_report(names[view][write], size, bytes, "MB/s", samples, n);
            }
        }
        free(buf);
    }
    MPI_File_close(&fh);
    MPI_Finalize();
    return 0;
}
