/* A plain MPI program built by the wrapper tests with mpicc, pkg-config and
 * CMake: every rank passes a token around a ring and rank 0 prints it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, token = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) {
        if (rank != 0) MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token += rank + 1;
        MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
        if (rank == 0) MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        token = 1;
    }
    if (rank == 0) printf("hello from C: %d ranks, token %d\n", size, token);
    MPI_Finalize();
    /* Rank 0 holds the full sum once the token came back. */
    return rank != 0 || token == size * (size + 1) / 2 ? 0 : 1;
}
