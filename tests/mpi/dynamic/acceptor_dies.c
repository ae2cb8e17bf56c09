/* The acceptor dies: rank 0 opens a port, hands its name to rank 1 and is
 * killed (SIGKILL) without accepting. The other ranks connect together
 * (their root is rank 1) and must all end with MPIX_ERR_PROC_FAILED, not
 * hang: the root's wait for the answer ends with the failure, and the root
 * tells the rest of its group. */
#define CHECK_ENDS_RANK_ONLY
#include "support/check.h"

#include <signal.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size >= 2, "needs at least 2 ranks");

    MPI_Comm rest;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &rest));
    char port[MPI_MAX_PORT_NAME];
    memset(port, 0, sizeof port);
    if (rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 1, MPI_COMM_WORLD));
        fflush(stdout);
        raise(SIGKILL);
    }
    MPI_Comm_set_errhandler(rest, MPI_ERRORS_RETURN);
    if (rank == 1) CHECK_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Comm c = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_Comm_connect(port, MPI_INFO_NULL, 0, rest, &c), MPIX_ERR_PROC_FAILED);
    CHECK(c == MPI_COMM_NULL, "a failed connect left a communicator");
    CHECK_MPI(MPI_Barrier(rest));
    if (rank == 1) printf("dynamic acceptor_dies: ok (%d ranks)\n", size);
    CHECK_MPI(MPI_Comm_free(&rest));
    MPI_Finalize();
    return 0;
}
