/* The MPI-2 client/server flow under a VM whose vm/drd keeps the names:
 * rank 0 opens a port and publishes it; the other ranks find it with
 * MPI_Lookup_name (another process: the name went through the VM), connect
 * together and rank 0 accepts; after MPI_Unpublish_name the lookup ends
 * with MPI_ERR_NAME. Needs at least 2 ranks. */
#include "support/check.h"

#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size >= 2, "needs at least 2 ranks");

    /* A service name of this job alone. */
    char service[64];
    int id = (int)getpid();
    CHECK_MPI(MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD));
    snprintf(service, sizeof service, "ftmpi-test-names-vm-%d", id);

    MPI_Comm clients;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : 1, rank, &clients));
    MPI_Comm_set_errhandler(clients, MPI_ERRORS_RETURN);
    char port[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME];
    memset(found, 0, sizeof found);
    if (rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    MPI_Comm inter;
    int value = -1;
    if (rank == 0) {
        CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter));
        value = 77;
        CHECK_MPI(MPI_Bcast(&value, 1, MPI_INT, MPI_ROOT, inter));
    } else {
        CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
        CHECK(strncmp(found, "ftmpi-port:", 11) == 0, "lookup gave \"%s\"", found);
        CHECK_MPI(MPI_Comm_connect(found, MPI_INFO_NULL, 0, clients, &inter));
        CHECK_MPI(MPI_Bcast(&value, 1, MPI_INT, 0, inter));
        CHECK(value == 77, "bcast from the server gave %d", value);
    }
    CHECK_MPI(MPI_Comm_free(&inter));

    if (rank == 0) CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank != 0) CHECK_CLASS(MPI_Lookup_name(service, MPI_INFO_NULL, found), MPI_ERR_NAME);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK_MPI(MPI_Close_port(port));
        printf("dynamic names_vm: ok (%d ranks)\n", size);
    }
    CHECK_MPI(MPI_Comm_free(&clients));
    MPI_Finalize();
    return 0;
}
