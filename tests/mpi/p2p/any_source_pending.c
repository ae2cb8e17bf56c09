/* ULFM's MPI_ANY_SOURCE rules (FT_CONTRACTS.md "Message modes", the
 * chapter's 17.2.2): the last rank SIGKILLs itself; on the survivors an
 * MPI_Irecv(MPI_ANY_SOURCE) is stopped, not ended — Wait, Test, Waitany,
 * Waitsome and Waitall report MPIX_ERR_PROC_FAILED_PENDING and leave the
 * request active — while a blocking MPI_Recv(MPI_ANY_SOURCE) ends with
 * MPIX_ERR_PROC_FAILED. After MPIX_Comm_failure_ack the same request
 * completes when a live rank sends to it. Isend to the failed rank succeeds
 * at initiation; its Wait reports the failure. Run without a VM: the broken
 * connection is the failure. */
#include "support/check.h"

#include <mpi-ext.h>
#include <signal.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int victim = size - 1, survivors = size - 1;

    /* A message sent before the failure stays receivable by ANY_SOURCE. */
    int early = -1;
    if (rank == victim) CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 9, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == victim) raise(SIGKILL);

    int got = -1;
    MPI_Request req;
    CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &req));
    /* Nobody sends tag 7 yet: only the failure ends this wait. */
    int e = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED_PENDING, "Wait gave class %d", error_class(e));
    CHECK(req != MPI_REQUEST_NULL, "Wait freed the stopped request");

    int flag = 1;
    e = MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED_PENDING && !flag, "Test gave class %d flag %d", error_class(e), flag);
    int index = -2;
    e = MPI_Waitany(1, &req, &index, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED_PENDING && index == 0, "Waitany gave class %d index %d",
          error_class(e), index);
    int outcount = -1, indices[1] = {-1};
    MPI_Status st;
    e = MPI_Waitsome(1, &req, &outcount, indices, &st);
    CHECK(e == MPI_ERR_IN_STATUS && outcount == 1 && indices[0] == 0 &&
              error_class(st.MPI_ERROR) == MPIX_ERR_PROC_FAILED_PENDING,
          "Waitsome gave %d outcount %d class %d", e, outcount, error_class(st.MPI_ERROR));
    e = MPI_Waitall(1, &req, &st);
    CHECK(e == MPI_ERR_IN_STATUS && error_class(st.MPI_ERROR) == MPIX_ERR_PROC_FAILED_PENDING,
          "Waitall gave %d class %d", e, error_class(st.MPI_ERROR));
    CHECK(req != MPI_REQUEST_NULL, "a wait freed the stopped request");

    /* Blocking: the receive ends. Probe the same. */
    e = MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "blocking ANY_SOURCE Recv gave class %d", error_class(e));
    e = MPI_Probe(MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "blocking ANY_SOURCE Probe gave class %d", error_class(e));

    /* Non-blocking operations on the failed rank report at completion only. */
    int x = 1;
    MPI_Request to_dead;
    CHECK_MPI(MPI_Isend(&x, 1, MPI_INT, victim, 3, MPI_COMM_WORLD, &to_dead));
    e = MPI_Wait(&to_dead, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "Wait of an Isend to the failed rank gave class %d", error_class(e));

    /* Acknowledged: ANY_SOURCE works again; the pending request gets a
     * live rank's message. */
    CHECK_MPI(MPIX_Comm_failure_ack(MPI_COMM_WORLD));
    MPI_Group acked;
    int nacked = -1;
    CHECK_MPI(MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &acked));
    MPI_Group_size(acked, &nacked);
    CHECK(nacked == 1, "%d acknowledged failures, expected 1", nacked);
    MPI_Group_free(&acked);
    /* Nobody sends tag 7 before every survivor saw its receive stopped:
     * rank 0 gathers "checked" and answers "go" (named sources). */
    int token = 0;
    if (rank == 0) {
        for (int r = 1; r < survivors; ++r)
            CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, r, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int r = 1; r < survivors; ++r) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, r, 21, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 0, 20, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    const int next = (rank + 1) % survivors, prev = (rank + survivors - 1) % survivors;
    CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, next, 7, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(got == prev && st.MPI_SOURCE == prev, "got %d from %d, expected %d", got, st.MPI_SOURCE, prev);
    if (rank == 0) {
        CHECK_MPI(MPI_Recv(&early, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st));
        CHECK(early == victim && st.MPI_SOURCE == victim, "the failed rank's early message: %d from %d", early,
              st.MPI_SOURCE);
    }
    /* A receive naming the failed rank still fails. */
    e = MPI_Recv(&got, 1, MPI_INT, victim, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(error_class(e) == MPIX_ERR_PROC_FAILED, "Recv from the failed rank gave class %d", error_class(e));
    MPI_Finalize();
    return 0;
}
