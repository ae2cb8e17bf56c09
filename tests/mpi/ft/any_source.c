/* MPI_ANY_SOURCE receives and failures (chapter 17.2.2):
 * a pending non-blocking ANY_SOURCE receive on a communicator with an
 * unacknowledged failed member completes MPI_Wait with
 * MPIX_ERR_PROC_FAILED_PENDING and stays pending; after
 * MPIX_Comm_failure_ack it matches a live sender's message. A blocking
 * ANY_SOURCE receive with a new unacknowledged failure returns
 * MPIX_ERR_PROC_FAILED. get_acked / get_failed / ack_failed report the
 * failed ranks. Ranks: 0 receives, 1 and 3 die, 2 (and 4..) send. */
#include "inject.h"

enum { TAG_GO = 1, TAG_DATA = 2 };

static int group_size(MPI_Group g) {
    int n = -1;
    MPI_Group_size(g, &n);
    return n;
}

/* Rank `world` of MPI_COMM_WORLD is in group g. */
static int group_has(MPI_Group g, int world) {
    MPI_Group wg;
    int out = MPI_UNDEFINED;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(wg, 1, &world, g, &out);
    MPI_Group_free(&wg);
    return out != MPI_UNDEFINED;
}

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    CHECK(size >= 4, "needs at least 4 ranks");
    ft_sync_before_kill(MPI_COMM_WORLD, 1);
    int go = 0, got = -1;

    if (rank == 1) ft_die(); /* first failure: rank 0 is already waiting on ANY_SOURCE (or about to) */
    if (rank == 0) {
        MPI_Request q;
        MPI_Status st;
        CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DATA, MPI_COMM_WORLD, &q));
        /* No live rank sends before we say so: only the failure can end this wait. */
        CHECK_CLASS(MPI_Wait(&q, &st), MPIX_ERR_PROC_FAILED_PENDING);
        CHECK(q != MPI_REQUEST_NULL, "the PENDING request was freed; it must stay pending");
        int done = 1;
        CHECK_CLASS(MPI_Test(&q, &done, &st), MPIX_ERR_PROC_FAILED_PENDING);
        CHECK(!done, "MPI_Test said the pending receive completed");

        MPI_Group failed;
        CHECK_MPI(MPIX_Comm_get_failed(MPI_COMM_WORLD, &failed));
        CHECK(group_size(failed) == 1 && group_has(failed, 1), "get_failed: %d ranks, rank 1 in it: %d",
              group_size(failed), group_has(failed, 1));
        MPI_Group_free(&failed);
        CHECK_MPI(MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &failed));
        CHECK(group_size(failed) == 0, "%d failures acknowledged before any ack", group_size(failed));
        MPI_Group_free(&failed);

        CHECK_MPI(MPIX_Comm_failure_ack(MPI_COMM_WORLD));
        CHECK_MPI(MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &failed));
        CHECK(group_size(failed) == 1 && group_has(failed, 1), "get_acked after ack: %d ranks", group_size(failed));
        MPI_Group_free(&failed);

        /* Acknowledged: the same request now matches a live sender. */
        go = 1;
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 2, TAG_GO, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&q, &st));
        CHECK(got == 2 && st.MPI_SOURCE == 2, "the acknowledged ANY_SOURCE receive got %d from %d", got, st.MPI_SOURCE);
        printf("rank 0: PENDING, ack, then matched rank 2's message\n");

        /* Second failure, unacknowledged: a blocking ANY_SOURCE receive fails. */
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 3, TAG_GO, MPI_COMM_WORLD));
        CHECK_CLASS(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DATA, MPI_COMM_WORLD, &st), MPIX_ERR_PROC_FAILED);
        CHECK_MPI(MPIX_Comm_get_failed(MPI_COMM_WORLD, &failed));
        CHECK(group_size(failed) == 2 && group_has(failed, 1) && group_has(failed, 3),
              "get_failed after the second failure: %d ranks", group_size(failed));
        MPI_Group_free(&failed);
        int acked = -1;
        CHECK_MPI(MPIX_Comm_ack_failed(MPI_COMM_WORLD, 2, &acked));
        CHECK(acked == 2, "ack_failed acknowledged %d", acked);

        /* Both acknowledged: ANY_SOURCE works again; named receives from the
         * dead still fail. */
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 2, TAG_GO, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, TAG_DATA, MPI_COMM_WORLD, &st));
        CHECK(got == 2 && st.MPI_SOURCE == 2, "got %d from %d", got, st.MPI_SOURCE);
        CHECK_CLASS(MPI_Recv(&got, 1, MPI_INT, 3, TAG_DATA, MPI_COMM_WORLD, &st), MPIX_ERR_PROC_FAILED);
        go = 0;
        for (int r = 4; r < size; ++r) CHECK_MPI(MPI_Send(&go, 1, MPI_INT, r, TAG_GO, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 2, TAG_GO, MPI_COMM_WORLD));
    } else if (rank == 3) {
        CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        ft_die();
    } else if (rank == 2) {
        /* Send one message per "go" until told to stop (go == 0). */
        for (;;) {
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (!go) break;
            CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD));
        }
    } else {
        CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    MPI_Finalize();
    return 0;
}
