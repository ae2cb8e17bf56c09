/* Three jobs: the server job accepts twice on one port while two client
 * jobs (cross_job.sh --second NP starts the second) connect at once; the
 * second waits on the port's socket until the server accepts again. Each
 * intercommunicator carries an Allreduce (the remote group's size) and a
 * message between the rank 0s, then is disconnected; the second gets
 * numbers after the first's.
 *   mpi_dynamic_cross_job_many server|client DIR file */
#include "support/check.h"

#include <string.h>

static int rank, size;

static void talk(MPI_Comm inter, int side) {
    int remote = 0, one = 1, sum = 0;
    CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, inter));
    CHECK(sum == remote, "allreduce %d, remote size %d", sum, remote);
    if (rank == 0) {
        int out[2] = {side, size}, in[2] = {-1, -1};
        CHECK_MPI(MPI_Sendrecv(out, 2, MPI_INT, 0, 8, in, 2, MPI_INT, 0, 8, inter, MPI_STATUS_IGNORE));
        CHECK(in[0] == 1 - side && in[1] == remote, "from the other rank 0: %d %d", in[0], in[1]);
    }
    CHECK_MPI(MPI_Comm_disconnect(&inter));
}

int main(int argc, char **argv) {
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(argc == 4, "usage: %s server|client DIR file", argv[0]);
    char port[MPI_MAX_PORT_NAME] = "", path[512], tmp[512];
    snprintf(path, sizeof path, "%s/port", argv[2]);
    snprintf(tmp, sizeof tmp, "%s/port.tmp", argv[2]);
    MPI_Comm inter;
    if (strcmp(argv[1], "server") == 0) {
        if (rank == 0) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
            FILE *f = fopen(tmp, "w");
            CHECK(f != NULL, "cannot write %s", tmp);
            fprintf(f, "%s\n", port);
            fclose(f);
            CHECK(rename(tmp, path) == 0, "rename to %s", path);
        }
        for (int k = 0; k < 2; ++k) {
            CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
            talk(inter, 0);
        }
        if (rank == 0) CHECK_MPI(MPI_Close_port(port));
    } else {
        if (rank == 0) {
            FILE *f = NULL;
            for (int i = 0; i < 3000 && (f = fopen(path, "r")) == NULL; ++i) usleep(10 * 1000);
            CHECK(f != NULL, "no %s after 30 s", path);
            CHECK(fscanf(f, "%1023s", port) == 1, "malformed %s", path);
            fclose(f);
        }
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
        talk(inter, 1);
    }
    if (rank == 0) printf("cross_job_many %s: ok (%d ranks)\n", argv[1], size);
    MPI_Finalize();
    return 0;
}
