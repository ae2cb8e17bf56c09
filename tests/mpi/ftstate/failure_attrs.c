/* A rank SIGKILLs itself; the survivors see the failure on
 * an operation that needs it (MPIX_ERR_PROC_FAILED), then read what
 * happened from the fault-tolerance attributes and states: one failure
 * event, the victim's rank, per-rank counts, a readable reason; the
 * communicator DETECTED, the victim's process FAILED, the others OK; and
 * operations between survivors still work (CONT mode).
 *
 * The victim is the last rank. It sends each survivor its MPI_Wtime just
 * before dying (one host: the monotonic clock is shared), so the survivors
 * print the detection latency kill -> error (not asserted: the machine is
 * shared).
 *
 * FTSTATE_EXPECT_EVENT=1 (the tests run with the VM's events service):
 * the failure must have come from the VM's proc_exit event, so the reason
 * names the signal: "killed by signal 9 (SIGKILL)". */
#include "check.h"

static void check_attributes(MPI_Comm comm, int victim, const char *which) {
    int size = 0, flag = 0;
    MPI_Comm_size(comm, &size);
    CHECK(int_attr(comm, FT_MPI_LIST_NUM_FAILED) == 1, "%s: FT_MPI_LIST_NUM_FAILED = %d, expected 1", which,
          int_attr(comm, FT_MPI_LIST_NUM_FAILED));
    int *list = NULL;
    CHECK_MPI(MPI_Comm_get_attr(comm, FT_MPI_LIST_FAILED, &list, &flag));
    CHECK(flag && list != NULL && list[0] == victim, "%s: FT_MPI_LIST_FAILED[0] = %d, expected %d", which,
          list ? list[0] : -1, victim);
    CHECK(int_attr(comm, FT_MPI_COM_NUM_FAILED) == 1, "%s: FT_MPI_COM_NUM_FAILED = %d", which,
          int_attr(comm, FT_MPI_COM_NUM_FAILED));
    int *counts = NULL;
    CHECK_MPI(MPI_Comm_get_attr(comm, FT_MPI_COM_FAILED, &counts, &flag));
    CHECK(flag && counts != NULL, "%s: FT_MPI_COM_FAILED missing", which);
    for (int r = 0; r < size; ++r)
        CHECK(counts[r] == (r == victim), "%s: FT_MPI_COM_FAILED[%d] = %d", which, r, counts[r]);
    char *text = NULL;
    CHECK_MPI(MPI_Comm_get_attr(comm, FT_MPI_ERROR_STRING, &text, &flag));
    CHECK(flag && text != NULL, "%s: FT_MPI_ERROR_STRING missing", which);
    char expected_rank[32];
    snprintf(expected_rank, sizeof expected_rank, "rank %d ", victim);
    CHECK(strstr(text, expected_rank) != NULL, "%s: FT_MPI_ERROR_STRING '%s' does not name %s", which, text,
          expected_rank);
    const char *event = getenv("FTSTATE_EXPECT_EVENT");
    if (event != NULL && strcmp(event, "1") == 0)
        CHECK(strstr(text, "killed by signal 9 (SIGKILL)") != NULL,
              "%s: FT_MPI_ERROR_STRING '%s' does not say signal 9 (the VM's event)", which, text);
    CHECK(int_attr(comm, MPIX_FT) == 1, "%s: MPIX_FT is not 1", which);

    int state = -1;
    CHECK_MPI(FTMPI_Comm_get_state(comm, &state));
    CHECK(state == FTMPI_COMM_DETECTED, "%s: comm state %d, expected FTMPI_COMM_DETECTED", which, state);
    for (int r = 0; r < size; ++r) {
        CHECK_MPI(FTMPI_Comm_get_proc_state(comm, r, &state));
        const int expected = r == victim ? FTMPI_PROC_FAILED : FTMPI_PROC_OK;
        CHECK(state == expected, "%s: proc state of %d is %d, expected %d", which, r, state, expected);
    }
    if (check_rank_ == 0) printf("%s: error string: %s\n", which, text);
}

int main(int argc, char **argv) {
    const int size = ftstate_init(&argc, &argv, 3);
    const int victim = size - 1;

    /* A communicator made before the failure (inherits ERRORS_RETURN). */
    MPI_Comm early;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &early));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    if (check_rank_ == victim) {
        for (int r = 0; r < victim; ++r) {
            double t = MPI_Wtime();
            CHECK_MPI(MPI_Send(&t, 1, MPI_DOUBLE, r, 1, MPI_COMM_WORLD));
        }
        die_by_sigkill();
    }

    double killed_at = 0;
    CHECK_MPI(MPI_Recv(&killed_at, 1, MPI_DOUBLE, victim, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int dummy = 0;
    CHECK_CLASS(MPI_Recv(&dummy, 1, MPI_INT, victim, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    const double seen_at = MPI_Wtime();
    printf("rank %d: detection latency (kill -> MPIX_ERR_PROC_FAILED) %.1f ms\n", check_rank_,
           (seen_at - killed_at) * 1e3);
    fflush(stdout);

    check_attributes(MPI_COMM_WORLD, victim, "MPI_COMM_WORLD");
    check_attributes(early, victim, "a dup made before the failure");
    /* MPI_COMM_SELF has no failed member. */
    CHECK(int_attr(MPI_COMM_SELF, FT_MPI_LIST_NUM_FAILED) == 0, "MPI_COMM_SELF counts a failure");

    /* CONT: the survivors still talk (a ring over ranks 0 … victim-1). */
    const int survivors = victim;
    int token = check_rank_, got = -1;
    CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, (check_rank_ + 1) % survivors, 3, &got, 1, MPI_INT,
                           (check_rank_ + survivors - 1) % survivors, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(got == (check_rank_ + survivors - 1) % survivors, "ring token %d", got);

    CHECK_MPI(MPI_Comm_free(&early));
    if (check_rank_ == 0) printf("failure_attrs: OK\n");
    MPI_Finalize();
    return 0;
}
