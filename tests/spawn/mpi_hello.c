/* A tiny MPI program for ftmpirun's tests: every rank prints its rank, the
 * size and an Allreduce of the ranks; with argument "abort", rank 1 calls
 * MPI_Abort(7) while the others wait in a Barrier that it never joins. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank = -1, size = 0, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("hello from rank %d of %d, sum %d\n", rank, size, sum);
    fflush(stdout);
    if (argc > 1 && strcmp(argv[1], "abort") == 0) {
        if (rank == 1) MPI_Abort(MPI_COMM_WORLD, 7);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
