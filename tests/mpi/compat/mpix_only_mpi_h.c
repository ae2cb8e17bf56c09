/* The ULFM extensions are visible through mpi.h alone, as with MPICH: a
 * program that never includes mpi-ext.h calls MPIX_Comm_agree and
 * MPIX_Comm_failure_ack and tests MPIX_ERR_PROC_FAILED. */
#include <mpi.h>
#include <stdio.h>

#ifndef MPIX_ERR_PROC_FAILED
#error "MPIX_ERR_PROC_FAILED is not visible through mpi.h"
#endif

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int flag = 1, rc;
    MPI_Group acked;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    if (rc != MPI_SUCCESS || flag != 1) {
        fprintf(stderr, "MPIX_Comm_agree: rc %d flag %d\n", rc, flag);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (MPIX_Comm_failure_ack(MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &acked) != MPI_SUCCESS) {
        fprintf(stderr, "MPIX_Comm_failure_ack/get_acked failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Group_free(&acked);
    if (rc == MPIX_ERR_PROC_FAILED || rc == MPIX_ERR_REVOKED) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Finalize();
    return 0;
}
