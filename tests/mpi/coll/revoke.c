/* Revocation ends pending collectives
 * (FT_CONTRACTS.md "Collectives under failures"): rank 0 revokes a dup of
 * MPI_COMM_WORLD instead of joining the collectives the others start on it.
 * The others' non-blocking Ibarrier and Iallreduce (waiting for rank 0, who
 * never comes) and a blocking Allreduce after them must end with
 * MPIX_ERR_REVOKED. Nobody fails here; the driver runs it with no victim
 * (COLL_FAILURE_VICTIM=-1), so every rank must exit 0. */
#include <mpi-ext.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static int rank;

static void expect_revoked(int rc, const char *what) {
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    if (cls != MPIX_ERR_REVOKED) {
        printf("rank %d: %s: error class %d, want MPIX_ERR_REVOKED (%d)\n", rank, what, cls, MPIX_ERR_REVOKED);
        fflush(stdout);
        _exit(1);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm comm;
    int rc;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    /* MPI_Wait on a non-blocking collective raises on MPI_COMM_WORLD here
     * (p2p's generalized requests know no communicator). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if ((rc = MPI_Barrier(comm)) != MPI_SUCCESS) {
        printf("rank %d: warm-up barrier failed: error %d\n", rank, rc);
        return 1;
    }
    double in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8];
    /* Rank 0 revokes only once everybody finished the warm-up (else the
     * revocation may end someone's warm-up barrier, as it should). */
    int size, token = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int r = 1; r < size; ++r) MPI_Recv(&token, 1, MPI_INT, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        if (MPIX_Comm_revoke(comm) != MPI_SUCCESS) {
            printf("rank 0: MPIX_Comm_revoke failed\n");
            return 1;
        }
    } else {
        MPI_Request reqs[2];
        /* Initiation does not report the revocation; completion does (a
         * revoke that arrived before the call is reported the same way). */
        rc = MPI_Ibarrier(comm, &reqs[0]);
        if (rc == MPI_SUCCESS) rc = MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
        expect_revoked(rc, "Ibarrier");
        rc = MPI_Iallreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, comm, &reqs[1]);
        if (rc == MPI_SUCCESS) rc = MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
        expect_revoked(rc, "Iallreduce");
        expect_revoked(MPI_Allreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, comm), "Allreduce");
    }
    /* A revoked communicator of one member: its collectives send nothing
     * that a revocation could refuse, and must fail all the same. */
    MPI_Comm alone;
    MPI_Comm_dup(MPI_COMM_SELF, &alone);
    MPI_Comm_set_errhandler(alone, MPI_ERRORS_RETURN);
    MPIX_Comm_revoke(alone);
    int one = 1, sum = 0;
    MPI_Request req;
    expect_revoked(MPI_Barrier(alone), "Barrier on a revoked communicator of one");
    expect_revoked(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, alone), "Allreduce on a revoked communicator of one");
    expect_revoked(MPI_Ibarrier(alone, &req), "Ibarrier on a revoked communicator of one");
    MPI_Comm_free(&alone);

    /* MPI_COMM_WORLD is not revoked: a clean end together. */
    rc = MPI_Barrier(MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        printf("rank %d: final barrier on MPI_COMM_WORLD: error %d\n", rank, rc);
        return 1;
    }
    printf("rank %d: pending collectives ended by the revocation\n", rank);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
