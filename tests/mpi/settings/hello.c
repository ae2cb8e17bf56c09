/* Initializes, says so, finalizes: the settings tests look at what libftmpi
 * prints around it (an invalid setting refused at MPI_Init, the log level's
 * filter). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank = -1;
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("settings_hello: rank %d initialized\n", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    printf("settings_hello: rank %d finalized\n", rank);
    return 0;
}
