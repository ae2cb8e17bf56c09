/* ULFM on an intercommunicator (world split into evens and odds, joined by
 * MPI_Intercomm_create):
 *  1. MPIX_Comm_agree with nothing failed: each side gets the AND of the
 *     other side's flags (the evens contribute 0x3, the odds 0x5 and one
 *     odd rank 0x4: the evens must see 0x4, the odds 0x3);
 *  2. world rank 1 (an odd) dies: a receive from it on the
 *     intercommunicator fails, MPIX_Comm_agree returns MPIX_ERR_PROC_FAILED
 *     at every survivor while the failure is not acknowledged, and after
 *     MPIX_Comm_failure_ack it succeeds, still with the other side's AND;
 *  3. MPIX_Comm_revoke on the intercommunicator, then MPIX_Comm_shrink: an
 *     intercommunicator of the survivors of both groups, in their old order,
 *     that carries messages and an allreduce.
 * Needs at least 4 ranks. */
#include "ulfm_test.h"

static int odd_contribution(int rank) {
    return rank == 3 ? 0x4 : 0x5;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size >= 4, "needs at least 4 ranks");
    const int side = rank % 2, evens = (size + 1) / 2, odds = size / 2;
    MPI_Comm half, inter;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, side, rank, &half) == MPI_SUCCESS, "split");
    CHECK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, side == 0 ? 1 : 0, 17, &inter) == MPI_SUCCESS,
          "intercomm_create");
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);

    /* 1. The other side's AND. */
    int flag = side == 0 ? 0x3 : odd_contribution(rank);
    int rc = MPIX_Comm_agree(inter, &flag);
    CHECK(rc == MPI_SUCCESS, "agree without failures: class %d", error_class(rc));
    int odds_and = 0x5;
    for (int r = 1; r < size; r += 2) odds_and &= odd_contribution(r);
    CHECK(flag == (side == 0 ? odds_and : 0x3), "agree gave %#x on side %d", flag, side);

    /* 2. World rank 1 (the odds' rank 0, their leader) dies. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) die_now();
    if (side == 0) {
        wait_for_failure_of(inter, 0); /* remote rank 0 is world rank 1 */
    } else {
        wait_for_failure_of(half, 0);
    }
    flag = side == 0 ? 0x3 : odd_contribution(rank);
    rc = MPIX_Comm_agree(inter, &flag);
    CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED, "agree with an unacknowledged failure: class %d", error_class(rc));
    CHECK(MPIX_Comm_failure_ack(inter) == MPI_SUCCESS, "failure_ack");
    flag = side == 0 ? 0x3 : odd_contribution(rank);
    rc = MPIX_Comm_agree(inter, &flag);
    CHECK(rc == MPI_SUCCESS, "agree after the ack: class %d", error_class(rc));
    int live_odds_and = ~0;
    for (int r = 3; r < size; r += 2) live_odds_and &= odd_contribution(r);
    CHECK(flag == (side == 0 ? live_odds_and : 0x3), "agree after the failure gave %#x on side %d", flag, side);

    /* 3. Revoke, shrink, use the result. */
    CHECK(MPIX_Comm_revoke(inter) == MPI_SUCCESS, "revoke");
    int x = 0;
    rc = MPI_Send(&x, 1, MPI_INT, side == 0 ? 1 : 0, 3, inter); /* a live remote process */
    CHECK(error_class(rc) == MPIX_ERR_REVOKED, "send on the revoked intercomm: class %d", error_class(rc));
    MPI_Comm small;
    rc = MPIX_Comm_shrink(inter, &small);
    CHECK(rc == MPI_SUCCESS, "shrink: class %d", error_class(rc));
    int is_inter = 0, local_size = 0, remote_size = 0, me = -1;
    MPI_Comm_test_inter(small, &is_inter);
    MPI_Comm_size(small, &local_size);
    MPI_Comm_remote_size(small, &remote_size);
    MPI_Comm_rank(small, &me);
    CHECK(is_inter, "the shrink of an intercommunicator is not an intercommunicator");
    const int live_evens = evens, live_odds = odds - 1;
    CHECK(local_size == (side == 0 ? live_evens : live_odds) && remote_size == (side == 0 ? live_odds : live_evens),
          "shrunk sizes: local %d remote %d", local_size, remote_size);
    CHECK(me == (side == 0 ? rank / 2 : rank / 2 - 1), "rank %d in the shrunk intercomm", me);
    MPI_Comm_set_errhandler(small, MPI_ERRORS_RETURN);
    /* Leaders swap their world ranks: the odds' new leader is world rank 3. */
    if (me == 0) {
        int got = -1;
        rc = MPI_Sendrecv(&rank, 1, MPI_INT, 0, 4, &got, 1, MPI_INT, 0, 4, small, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && got == (side == 0 ? 3 : 0), "leaders' exchange: rc %d got %d", rc, got);
    }
    int sum = 0;
    rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, small);
    int remote_sum = 0;
    for (int r = 1 - side; r < size; r += 2)
        if (r != 1) remote_sum += r;
    CHECK(rc == MPI_SUCCESS && sum == remote_sum, "allreduce over the shrunk intercomm: rc %d sum %d, want %d", rc, sum,
          remote_sum);
    if (rank == 0) printf("intercomm agree, ack, revoke and shrink: ok\n");
    MPI_Comm_free(&small);
    MPI_Finalize();
    return 0;
}
