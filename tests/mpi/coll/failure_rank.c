/* One rank of the failure test (failure_driver.c
 * starts the job). After a first round of collectives, which connects every
 * pair, the last rank kills itself with SIGKILL; the survivors keep calling
 * collectives (Barrier, Allreduce, Bcast, Alltoall, Iallreduce, in turn,
 * starting with kind np % 5) until one returns an
 * error, print it and exit 0 without MPI_Finalize — the driver checks that
 * every survivor got there (nobody hung). Exit 3: no error in 20 s. */
#include "support/check.h"

#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *a = calloc((size_t)size * 256, sizeof(int)), *b = calloc((size_t)size * 256, sizeof(int));
    if (MPI_Alltoall(a, 256, MPI_INT, b, 256, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) return 4;
    if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) return 4;
    if (rank == size - 1) raise(SIGKILL);

    const double deadline = MPI_Wtime() + 20;
    /* The first collective after the failure depends on the job size, so
     * the process counts of the test cover each kind (np % 5). */
    for (long i = size % 5; MPI_Wtime() < deadline; ++i) {
        int rc;
        MPI_Request req;
        switch (i % 5) {
        case 0: rc = MPI_Barrier(MPI_COMM_WORLD); break;
        case 1: rc = MPI_Allreduce(a, b, 256, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
        case 2: rc = MPI_Bcast(a, 256, MPI_INT, (int)(i % size), MPI_COMM_WORLD); break;
        case 3: rc = MPI_Alltoall(a, 256, MPI_INT, b, 256, MPI_INT, MPI_COMM_WORLD); break;
        default:
            rc = MPI_Iallreduce(a, b, 256, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
            if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
            break;
        }
        if (rc != MPI_SUCCESS) {
            char text[MPI_MAX_ERROR_STRING];
            int len = 0, cls = 0;
            MPI_Error_class(rc, &cls);
            MPI_Error_string(rc, text, &len);
            printf("rank %d: collective %ld returned error class %d (%s)\n", rank, i, cls, text);
            fflush(stdout);
            _exit(0);
        }
    }
    printf("rank %d: no error within 20 s of the failure\n", rank);
    fflush(stdout);
    _exit(3);
}
