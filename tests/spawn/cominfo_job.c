/* The job cominfo_live.cpp watches: 4 ranks in comm mode SHRINK with a
 * duplicate of MPI_COMM_WORLD named "work". The test kills one rank with
 * kill -9 (from outside); the survivors notice it on "work" (its
 * FT_MPI_COM_NUM_FAILED attribute), then wait for the go-ahead (DIR/recover, written
 * once the test saw the failure in cominfo), recover "work" by
 * MPI_Comm_dup (SHRINK), check its new size, and wait for DIR/finish before
 * MPI_Finalize. Every wait has a deadline; a missed one ends the rank with
 * status 1 and a line on stderr.
 *   cominfo_job DIR */
#include <mpi-ext.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fail(int rank, const char *what) {
    fprintf(stderr, "cominfo_job: rank %d: %s\n", rank, what);
    fflush(stderr);
    _exit(1);
}

static void wait_file(const char *dir, const char *name, int rank) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const double deadline = now() + 60.0;
    while (access(path, F_OK) != 0) {
        if (now() > deadline) fail(rank, name);
        usleep(10000);
    }
}

static void write_file(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("1\n", f);
        fclose(f);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: cominfo_job DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm work;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &work) != MPI_SUCCESS) fail(rank, "MPI_Comm_dup");
    MPI_Comm_set_name(work, "work");
    if (MPI_Barrier(work) != MPI_SUCCESS) fail(rank, "first barrier");
    if (rank == 0) write_file(dir, "ready");

    /* Until the test kills a rank: no collective is in flight when it dies
     * (without strict collectives one could succeed at some members and
     * leave others waiting), each rank just watches the failure count of
     * "work", which the VM's notice raises. */
    const double deadline = now() + 60.0;
    for (;;) {
        int *failed = NULL, flag = 0;
        MPI_Comm_get_attr(work, FT_MPI_COM_NUM_FAILED, &failed, &flag);
        if (flag && *failed > 0) break;
        if (now() > deadline) fail(rank, "no failure within 60 s");
        usleep(10000);
    }

    wait_file(dir, "recover", rank);
    MPI_Comm again;
    if (MPI_Comm_dup(work, &again) != MPI_SUCCESS) fail(rank, "MPI_Comm_dup recovering work");
    int shrunk = 0;
    MPI_Comm_size(work, &shrunk);
    if (shrunk != size - 1) fail(rank, "work did not shrink by one");
    if (MPI_Barrier(work) != MPI_SUCCESS) fail(rank, "barrier on the recovered work");
    if (rank == 0) write_file(dir, "recovered");

    wait_file(dir, "finish", rank);
    MPI_Comm_free(&again);
    MPI_Finalize();
    return 0;
}
