/* Initializes, says so, finalizes: the settings tests look at what libftmpi
 * prints around it (an invalid setting refused at MPI_Init, the log level's
 * filter). With SETTINGS_HELLO_SPIN=<value> it sets FTMPI_SPIN_US to that
 * value in main, before MPI_Init, which must hear it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank = -1;
    const char *spin = getenv("SETTINGS_HELLO_SPIN");
    if (spin) setenv("FTMPI_SPIN_US", spin, 1);
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("settings_hello: rank %d initialized\n", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    printf("settings_hello: rank %d finalized\n", rank);
    return 0;
}
