/* The MPI job of the daemon-watch test (ftmpi_daemon_watch.cpp): each rank
 * writes DIR/pid<R>, waits until DIR/done exists (at most 120 s), meets the
 * others in a barrier and prints "rank R done". While it waits the test
 * stops or kills the ranks' daemon; the failure notifier decides whether
 * the rank leaves the job. */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>

#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: daemon_watch_job DIR\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char path[4096];
    snprintf(path, sizeof path, "%s/pid%d", argv[1], rank);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0) {
        fprintf(stderr, "rank %d: cannot write %s\n", rank, path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    snprintf(path, sizeof path, "%s/done", argv[1]);
    const double start = MPI_Wtime();
    while (access(path, F_OK) != 0 && MPI_Wtime() - start < 120.0) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
