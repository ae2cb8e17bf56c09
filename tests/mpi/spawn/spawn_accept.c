/* Ports between a parent and the process it spawned: rank 0 opens a port
 * and sends its name over the parent intercommunicator; the child connects
 * to it while the parent accepts, and the two exchange a message over the
 * new intercommunicator before both disconnect. */
#include "spawn_support.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent, other;
    char port[MPI_MAX_PORT_NAME];
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        CHECK_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, parent, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other));
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 2, other, MPI_STATUS_IGNORE));
        v += 1;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 3, other));
        CHECK_MPI(MPI_Comm_disconnect(&other));
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    MPI_Comm inter;
    CHECK_MPI(spawn_self(MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE));
    if (rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, inter));
    }
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &other));
    if (rank == 0) {
        int v = 41;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, other));
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 3, other, MPI_STATUS_IGNORE));
        CHECK(v == 42, "the child answered %d over the accepted communicator", v);
        CHECK_MPI(MPI_Close_port(port));
        printf("a spawned child connected to its parent's port: ok\n");
    }
    CHECK_MPI(MPI_Comm_disconnect(&other));
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    MPI_Finalize();
    return 0;
}
