/* MPI_ERRORS_ARE_FATAL (the default): an invalid call prints which function
 * failed and why, and ends the whole job. The test passes when that message
 * appears and fails if any rank gets past the error. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int x = 0;
        MPI_Send(&x, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
        printf("rank 0 survived an invalid send\n");
        fflush(stdout);
    } else {
        /* The others wait for a message that never comes: the abort must end them. */
        int x;
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank %d survived\n", rank);
    }
    MPI_Finalize();
    return 0;
}
