/* MPI_Abort in one of two connected jobs (cross_job.sh --abort starts both,
 * two ranks each): the client's rank 1 aborts with code 3 once connected;
 * the server's processes, waiting for a message from the client, are
 * connected to it and end with that code too (as an abort ends the jobs
 * connected to the aborting one under Open MPI), saying why.
 *   mpi_dynamic_cross_job_abort server|client DIR file */
#define CHECK_ENDS_RANK_ONLY
#include "support/check.h"

#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    CHECK(argc == 4, "usage: %s server|client DIR file", argv[0]);
    char port[MPI_MAX_PORT_NAME] = "", path[512], tmp[512];
    snprintf(path, sizeof path, "%s/port", argv[2]);
    snprintf(tmp, sizeof tmp, "%s/port.tmp", argv[2]);
    MPI_Comm inter;
    int v = 0;
    if (strcmp(argv[1], "server") == 0) {
        if (rank == 0) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            FILE *f = fopen(tmp, "w");
            CHECK(f != NULL, "cannot write %s", tmp);
            fprintf(f, "%s\n", port);
            fclose(f);
            CHECK(rename(tmp, path) == 0, "rename to %s", path);
        }
        CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
        MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE); /* the abort ends this process in here */
        CHECK(0, "the server outlived the client's MPI_Abort");
    }
    if (rank == 0) {
        FILE *f = NULL;
        for (int i = 0; i < 3000 && (f = fopen(path, "r")) == NULL; ++i) usleep(10 * 1000);
        CHECK(f != NULL, "no %s after 30 s", path);
        CHECK(fscanf(f, "%1023s", port) == 1, "malformed %s", path);
        fclose(f);
    }
    CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    if (rank == 1) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE); /* the abort ends this process in here */
    CHECK(0, "the client outlived its rank 1's MPI_Abort");
    MPI_Finalize();
    return 0;
}
