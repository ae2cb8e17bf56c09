/* Many connectors, one acceptor: rank 0 opens a port and broadcasts its
 * name; every other rank connects on its own (MPI_COMM_SELF), most of them
 * before rank 0 starts accepting, so their requests wait in the port's
 * queue; rank 0 accepts size-1 times, learns each peer's world rank over
 * its intercommunicator and must meet every rank once.
 * A barrier over the world ends it. */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    char port[MPI_MAX_PORT_NAME];
    memset(port, 0, sizeof port);
    if (rank == 0) CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD));

    if (rank == 0) {
        usleep(100 * 1000); /* let the requests queue up */
        int *met = calloc((size_t)size, sizeof *met);
        for (int i = 1; i < size; ++i) {
            MPI_Comm c;
            CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c));
            int who = -1, remote_size = 0;
            CHECK_MPI(MPI_Comm_remote_size(c, &remote_size));
            CHECK(remote_size == 1, "remote size %d", remote_size);
            CHECK_MPI(MPI_Recv(&who, 1, MPI_INT, 0, 7, c, MPI_STATUS_IGNORE));
            CHECK(who > 0 && who < size && !met[who], "accepted rank %d twice or out of range", who);
            met[who] = 1;
            CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, 8, c));
            CHECK_MPI(MPI_Comm_free(&c));
        }
        free(met);
        CHECK_MPI(MPI_Close_port(port));
    } else {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c));
        int order = -1;
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 7, c));
        CHECK_MPI(MPI_Recv(&order, 1, MPI_INT, 0, 8, c, MPI_STATUS_IGNORE));
        CHECK(order >= 1 && order < size, "accepted as number %d", order);
        CHECK_MPI(MPI_Comm_free(&c));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("dynamic many_connect: ok (%d ranks)\n", size);
    MPI_Finalize();
    return 0;
}
