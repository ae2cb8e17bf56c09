/* A rank dies before the agreement; the survivors know it (a receive from
 * it failed). MPIX_Comm_agree then returns MPIX_ERR_PROC_FAILED at every
 * survivor while any of them has not acknowledged the failure — even when
 * only some acknowledged — with the flag still the AND of the live
 * contributions; after everyone's MPIX_Comm_failure_ack it succeeds. The
 * acknowledgement calls report the dead rank. */
#include "ulfm_test.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int victim = size / 2;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim) die_now();
    wait_for_failure_of(MPI_COMM_WORLD, victim);

    MPI_Group g;
    int n = -1, member = -1;
    MPIX_Comm_get_failed(MPI_COMM_WORLD, &g);
    n = group_ranks_in(g, MPI_COMM_WORLD, &member, 1);
    CHECK(n == 1 && member == victim, "get_failed: %d members, first %d (victim %d)", n, member, victim);
    MPI_Group_free(&g);
    MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &g);
    MPI_Group_size(g, &n);
    CHECK(n == 0, "get_acked before any ack: %d members", n);
    MPI_Group_free(&g);

    /* Nobody acknowledged: PROC_FAILED everywhere, flag = AND of the live. */
    int flag = rank == 0 ? 0x6 : 0x7;
    int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED, "agree 1: class %d", error_class(rc));
    CHECK(flag == 0x6, "agree 1: flag %#x", flag);

    /* Only the lowest survivor acknowledges: still PROC_FAILED everywhere. */
    if (rank == 0) MPIX_Comm_failure_ack(MPI_COMM_WORLD);
    flag = 1;
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED, "agree 2 (one acked): class %d", error_class(rc));
    CHECK(flag == 1, "agree 2: flag %d", flag);

    /* Everybody acknowledges (ack_failed for some, failure_ack for others). */
    if (rank % 2 == 1) {
        int acked = -1;
        MPIX_Comm_ack_failed(MPI_COMM_WORLD, 0, &acked);
        CHECK(acked == (rank == 0), "ack_failed(0) reports %d acknowledged", acked);
        MPIX_Comm_ack_failed(MPI_COMM_WORLD, 1, &acked);
        CHECK(acked == 1, "ack_failed(1) reports %d acknowledged", acked);
    } else {
        MPIX_Comm_failure_ack(MPI_COMM_WORLD);
    }
    MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &g);
    n = group_ranks_in(g, MPI_COMM_WORLD, &member, 1);
    CHECK(n == 1 && member == victim, "get_acked after ack: %d members, first %d", n, member);
    MPI_Group_free(&g);
    flag = rank == size - 1 ? 2 : 3;
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(rc == MPI_SUCCESS, "agree 3 (all acked): class %d", error_class(rc));
    CHECK(flag == 2 || victim == size - 1, "agree 3: flag %d", flag);

    /* Non-blocking form: same rules. */
    MPI_Request req;
    flag = 5;
    CHECK(MPIX_Comm_iagree(MPI_COMM_WORLD, &flag, &req) == MPI_SUCCESS, "iagree start");
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag == 5, "iagree: flag %d", flag);
    if (rank == 0) printf("agree_dead_before: %d survivors agree\n", size - 1);
    MPI_Finalize();
    return 0;
}
