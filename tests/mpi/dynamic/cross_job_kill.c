/* A process of the other job is killed (cross_job.sh --kill starts both
 * jobs, two ranks each, and kills the client's rank 1 with SIGKILL once it
 * wrote its pid into DIR/victim). The jobs are connected by
 * MPI_Comm_accept/MPI_Comm_connect; the killed process is in no job of the
 * server's, whose VM never hears of it: the broken connection alone must
 * end the server's operations that need it with MPIX_ERR_PROC_FAILED (comm
 * mode ulfm), and nothing may hang.
 *   server: a receive from the killed process fails, and so does a
 *           synchronous send to it and a barrier on the intercommunicator;
 *           the other client process still talks to us; MPIX_Comm_agree,
 *           MPIX_Comm_revoke and MPIX_Comm_shrink on the intercommunicator
 *           (both jobs order the participants alike) give an
 *           intercommunicator of the survivors that works; then free and
 *           finalize, and the server job ends with status 0.
 *   client rank 0: learns its rank 1 died (its own job), then the same
 *           barrier, exchange, agree, revoke and shrink.
 *   mpi_dynamic_cross_job_kill server|client DIR file */
#define CHECK_ENDS_RANK_ONLY
#include "support/check.h"

#include "exchange_files.h"

#include <string.h>

static int rank, size;

/* After the failure: what every live process does on the intercommunicator. */
static void after_failure(MPI_Comm inter, int side) {
    if (side == 0) {
        /* The failed process is a peer of every server process in a barrier. */
        CHECK_CLASS(MPI_Barrier(inter), MPIX_ERR_PROC_FAILED);
    } else {
        /* It is in the client's own group, which an intercommunicator barrier
         * does not wait for: ULFM allows success or the failure here; what
         * matters is that it returns. */
        const int rc = error_class(MPI_Barrier(inter));
        CHECK(rc == MPI_SUCCESS || rc == MPIX_ERR_PROC_FAILED, "client barrier: class %d", rc);
    }
    /* The two survivors' rank 0s still talk. */
    if (rank == 0) {
        int out = 500 + side, in = -1;
        CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, 0, 5, &in, 1, MPI_INT, 0, 5, inter, MPI_STATUS_IGNORE));
        CHECK(in == 501 - side, "from the other job's rank 0: %d", in);
    }
    /* The ULFM recipe on the intercommunicator: agree, revoke, shrink. */
    int flag = 1;
    const int agreed = error_class(MPIX_Comm_agree(inter, &flag));
    CHECK(agreed == MPI_SUCCESS || agreed == MPIX_ERR_PROC_FAILED, "agree: class %d", agreed);
    CHECK_MPI(MPIX_Comm_revoke(inter));
    MPI_Comm shrunk;
    CHECK_MPI(MPIX_Comm_shrink(inter, &shrunk));
    int lsize = 0, rsize = 0;
    CHECK_MPI(MPI_Comm_size(shrunk, &lsize));
    CHECK_MPI(MPI_Comm_remote_size(shrunk, &rsize));
    CHECK(lsize == (side == 0 ? 2 : 1) && rsize == (side == 0 ? 1 : 2), "shrunk: %d local, %d remote", lsize, rsize);
    int mine = 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, shrunk));
    CHECK(sum == rsize, "allreduce on the shrunk communicator: %d", sum);
    CHECK_MPI(MPI_Comm_free(&shrunk));
    CHECK_MPI(MPI_Comm_free(&inter));
}

static void server(const char *dir) {
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        write_file(dir, "port", port);
    }
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int remote = 0, v = 0;
    CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
    CHECK(remote == 2, "remote size %d", remote);
    /* The killed process never sends: only its failure ends this. */
    CHECK_CLASS(MPI_Recv(&v, 1, MPI_INT, 1, 4, inter, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    /* Nor can anything be sent to it now. */
    CHECK_CLASS(MPI_Ssend(&v, 1, MPI_INT, 1, 6, inter), MPIX_ERR_PROC_FAILED);
    after_failure(inter, 0);
    if (rank == 0) CHECK_MPI(MPI_Close_port(port));
}

static void client(const char *dir) {
    char port[MPI_MAX_PORT_NAME] = "";
    if (rank == 0) read_file(dir, "port", port, sizeof port);
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int v = 0;
    if (rank == 1) {
        char pid[32];
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        write_file(dir, "victim", pid);
        MPI_Recv(&v, 1, MPI_INT, 0, 4, inter, MPI_STATUS_IGNORE); /* killed in here */
        CHECK(0, "rank 1 outlived its SIGKILL");
    }
    CHECK_CLASS(MPI_Recv(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    after_failure(inter, 1);
}

int main(int argc, char **argv) {
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(argc == 4, "usage: %s server|client DIR file", argv[0]);
    CHECK(size == 2, "needs 2 ranks per job, not %d", size);
    const int is_server = strcmp(argv[1], "server") == 0;
    if (is_server)
        server(argv[2]);
    else
        client(argv[2]);
    if (rank == 0) printf("cross_job_kill %s: ok (%d ranks)\n", argv[1], size);
    MPI_Finalize();
    return 0;
}
