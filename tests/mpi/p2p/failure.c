/* A rank that ends without MPI_Finalize is a failed process to its peers:
 * every pending operation that needs it — a receive from it, a rendezvous
 * send to it — completes with MPIX_ERR_PROC_FAILED, later ones fail at once,
 * and the survivors still talk and finalize. An ANY_SOURCE receive is only
 * stopped (ULFM): MPIX_ERR_PROC_FAILED_PENDING in its status, still active.
 * The last rank exits with status 0 (so the launcher keeps the job) right
 * after telling rank 0 it is going. */
#include "support/check.h"

#include <mpi-ext.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int victim = size - 1;
    int x = 0;

    if (rank == victim) {
        /* Leave while the others wait on us: no MPI_Finalize. */
        CHECK_MPI(MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD));
        _exit(0);
    }
    MPI_Request reqs[3];
    int from_victim = 0, any = 0;
    enum { BIG = 1 << 20 };
    char *big = calloc(BIG, 1);
    CHECK_MPI(MPI_Irecv(&from_victim, 1, MPI_INT, victim, 2, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Irecv(&any, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Isend(big, BIG, MPI_CHAR, victim, 4, MPI_COMM_WORLD, &reqs[2])); /* rendezvous: needs a CTS */
    if (rank == 0) CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, victim, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));

    MPI_Status sts[3];
    int e = MPI_Waitall(3, reqs, sts);
    CHECK(e == MPI_ERR_IN_STATUS, "Waitall gave %d, expected MPI_ERR_IN_STATUS", e);
    for (int i = 0; i < 3; ++i) {
        int want = i == 1 ? MPIX_ERR_PROC_FAILED_PENDING : MPIX_ERR_PROC_FAILED;
        CHECK(error_class(sts[i].MPI_ERROR) == want, "request %d ended with class %d, expected %d", i,
              error_class(sts[i].MPI_ERROR), want);
    }
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[2] == MPI_REQUEST_NULL, "failed requests were not freed");
    CHECK(reqs[1] != MPI_REQUEST_NULL, "the stopped ANY_SOURCE receive was freed");
    /* A stopped receive can still be cancelled. */
    CHECK_MPI(MPI_Cancel(&reqs[1]));
    MPI_Status cst;
    CHECK_MPI(MPI_Wait(&reqs[1], &cst));
    int cancelled = 0;
    MPI_Test_cancelled(&cst, &cancelled);
    CHECK(cancelled, "the stopped receive was not cancelled");

    /* New operations with the failed rank fail at once instead of blocking. */
    e = MPI_Recv(&x, 1, MPI_INT, victim, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "receive from a failed rank gave class %d", error_class(e));
    e = MPI_Send(big, BIG, MPI_CHAR, victim, 5, MPI_COMM_WORLD);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "send to a failed rank gave class %d", error_class(e));
    e = MPI_Probe(victim, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "probe of a failed rank gave class %d", error_class(e));

    /* Survivors still exchange messages among themselves. */
    int survivors = size - 1;
    if (survivors > 1) {
        int next = (rank + 1) % survivors, prev = (rank + survivors - 1) % survivors, got = -1;
        CHECK_MPI(
            MPI_Sendrecv(&rank, 1, MPI_INT, next, 6, &got, 1, MPI_INT, prev, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(got == prev, "survivor ring got %d", got);
    }
    free(big);
    MPI_Finalize(); /* must not hang on the failed rank */
    return 0;
}
