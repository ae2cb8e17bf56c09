/* MPI_Abort ends the whole job: rank 1 aborts with code 3 while the other
 * ranks block in receives nobody will satisfy. The test passes when the
 * launcher reports a rank exiting with status 3 (not a timeout). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, x;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "rank %d: receive returned after the abort\n", rank);
    return 0;
}
