/* mpi-ext.h before mpi.h, then mpi.h again: no redefinition. */
#include <mpi-ext.h>
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int revoked = -1;
    if (MPIX_Comm_is_revoked(MPI_COMM_WORLD, &revoked) != MPI_SUCCESS || revoked != 0) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Finalize();
    return 0;
}
