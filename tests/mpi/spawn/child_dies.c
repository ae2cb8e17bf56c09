/* A spawned process that dies is a process failure on the intercommunicator
 * (comm mode ulfm): the parents' receive from it ends with
 * MPIX_ERR_PROC_FAILED, while the other child still answers. */
#include "spawn_support.h"

#include <mpi-ext.h>
#include <signal.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        if (rank == 1) {
            fflush(stdout);
            raise(SIGKILL);
        }
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE));
        v += 1;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, parent));
        MPI_Comm_free(&parent);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm inter;
    int codes[2];
    CHECK_MPI(spawn_self(MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    if (rank == 0) {
        int v = 41, dummy = 0;
        int rc = MPI_Recv(&dummy, 1, MPI_INT, 1, 5, inter, MPI_STATUS_IGNORE);
        CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED, "receive from the dead child: class %d", error_class(rc));
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 1, inter));
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 2, inter, MPI_STATUS_IGNORE));
        CHECK(v == 42, "the live child answered %d", v);
        printf("a dead child is a failure on the intercommunicator: ok\n");
    }
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
