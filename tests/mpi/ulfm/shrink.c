/* MPIX_Comm_shrink after failures: argv[1] ranks die (1 or 2: ranks 1 and
 * size-2), the survivors revoke MPI_COMM_WORLD (shrink works on a revoked
 * communicator), shrink it, and check the new communicator: its size, the
 * survivors in their old rank order, and an allreduce over it. Then the
 * non-blocking form on the result, and a shrink without failures. */
#include "ulfm_test.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int kills = argc > 1 ? atoi(argv[1]) : 1;
    int dead[2] = {1, size - 2};
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < kills; ++k)
        if (rank == dead[k]) die_now();
    /* A survivor that saw the failures revokes at once, so the others may
     * learn of the revocation before the failure: both are fine. */
    for (int k = 0; k < kills; ++k) wait_for_failure_or(MPI_COMM_WORLD, dead[k], 1);

    CHECK(MPIX_Comm_revoke(MPI_COMM_WORLD) == MPI_SUCCESS, "revoke");
    int revoked = 0;
    MPIX_Comm_is_revoked(MPI_COMM_WORLD, &revoked);
    CHECK(revoked, "world not revoked after revoke");
    int x = 0;
    CHECK(error_class(MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD)) == MPIX_ERR_REVOKED, "bcast on revoked world");

    MPI_Comm small;
    int rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &small);
    CHECK(rc == MPI_SUCCESS, "shrink: class %d", error_class(rc));
    int n = 0, me = -1;
    MPI_Comm_size(small, &n);
    MPI_Comm_rank(small, &me);
    CHECK(n == size - kills, "shrunk size %d, want %d", n, size - kills);
    int want = rank;
    for (int k = 0; k < kills; ++k)
        if (dead[k] < rank) --want;
    CHECK(me == want, "rank %d in the shrunk comm, want %d (old order kept)", me, want);
    MPI_Comm_set_errhandler(small, MPI_ERRORS_RETURN);
    int sum = 0;
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, small) == MPI_SUCCESS, "allreduce on shrunk comm");
    int expect = size * (size - 1) / 2;
    for (int k = 0; k < kills; ++k) expect -= dead[k];
    CHECK(sum == expect, "allreduce sum %d, want %d", sum, expect);
    revoked = 1;
    MPIX_Comm_is_revoked(small, &revoked);
    CHECK(!revoked, "shrunk comm is revoked");

    /* ishrink of the shrunk comm (no failures there): a plain copy. */
    MPI_Comm again;
    MPI_Request req;
    CHECK(MPIX_Comm_ishrink(small, &again, &req) == MPI_SUCCESS, "ishrink start");
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS, "ishrink wait");
    int n2 = 0, me2 = -1;
    MPI_Comm_size(again, &n2);
    MPI_Comm_rank(again, &me2);
    CHECK(n2 == n && me2 == me, "ishrink: size %d rank %d, want %d %d", n2, me2, n, me);
    int one = 1, total = 0;
    MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, again);
    CHECK(total == n, "allreduce over ishrink result: %d", total);
    if (me == 0) printf("shrink: %d of %d survive, ranks in order, allreduce ok\n", n, size);
    MPI_Comm_free(&again);
    MPI_Comm_free(&small);
    MPI_Finalize();
    return 0;
}
