/* MPIX_Comm_revoke interrupts receives blocked everywhere: every rank but
 * the last posts a receive nobody will match, on a duplicate of the world;
 * the last rank revokes it. Every blocked receive ends with
 * MPIX_ERR_REVOKED, new operations fail the same way, and the agreement
 * still works on the revoked communicator. */
#include "ulfm_test.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int x = 0;
    if (rank == size - 1) {
        MPI_Barrier(MPI_COMM_WORLD); /* the others' receives are posted (or about to be) */
        CHECK(MPIX_Comm_revoke(comm) == MPI_SUCCESS, "revoke");
    } else {
        MPI_Request req;
        MPI_Irecv(&x, 1, MPI_INT, size - 1, 5, comm, &req);
        MPI_Barrier(MPI_COMM_WORLD);
        int rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(error_class(rc) == MPIX_ERR_REVOKED, "blocked receive ended with class %d", error_class(rc));
        rc = MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 6, comm, MPI_STATUS_IGNORE);
        CHECK(error_class(rc) == MPIX_ERR_REVOKED, "new receive: class %d", error_class(rc));
    }
    int revoked = 0;
    MPIX_Comm_is_revoked(comm, &revoked);
    CHECK(revoked, "not revoked");
    int flag = 1;
    int rc = MPIX_Comm_agree(comm, &flag);
    CHECK(rc == MPI_SUCCESS && flag == 1, "agree on revoked comm: class %d flag %d", error_class(rc), flag);
    MPI_Comm_free(&comm);
    if (rank == 0) printf("revoke_recv: %d ranks interrupted\n", size);
    MPI_Finalize();
    return 0;
}
