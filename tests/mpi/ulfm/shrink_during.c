/* A rank dies inside MPIX_Comm_shrink (it starts MPIX_Comm_ishrink, then
 * SIGKILL), another one before it. The survivors use the chapter's pattern:
 * shrink, try an allreduce on the result, and if that fails (the new
 * communicator may still hold the process that died during the shrink),
 * revoke it and shrink again. They must end with a communicator of exactly
 * the survivors, in order, whose allreduce is right — within few rounds. */
#include "ulfm_test.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int before = 1, during = size - 1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == before) die_now();
    if (rank == during) {
        wait_for_failure_of(MPI_COMM_WORLD, before);
        MPI_Comm lost;
        MPI_Request req;
        MPIX_Comm_ishrink(MPI_COMM_WORLD, &lost, &req);
        die_now();
    }
    wait_for_failure_of(MPI_COMM_WORLD, before);

    MPI_Comm comm = MPI_COMM_WORLD;
    int sum = -1, rounds = 0;
    for (;;) {
        MPI_Comm next;
        int rc = MPIX_Comm_shrink(comm, &next);
        CHECK(rc == MPI_SUCCESS, "shrink round %d: class %d", rounds, error_class(rc));
        if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
        comm = next;
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        ++rounds;
        rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
        int ok = rc == MPI_SUCCESS;
        /* Whether the allreduce worked can differ between survivors: agree. */
        rc = MPIX_Comm_agree(comm, &ok);
        if (rc == MPI_SUCCESS && ok) break;
        CHECK(rounds < 5, "still no working communicator after %d shrinks", rounds);
        MPIX_Comm_revoke(comm);
    }
    int n = 0, me = -1;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    CHECK(n == size - 2, "final size %d, want %d", n, size - 2);
    CHECK(me == (rank > before ? rank - 1 : rank), "final rank %d (old order)", me);
    int expect = size * (size - 1) / 2 - before - during;
    CHECK(sum == expect, "allreduce %d, want %d", sum, expect);
    if (me == 0) printf("shrink_during: %d survivors after %d shrink(s)\n", n, rounds);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
