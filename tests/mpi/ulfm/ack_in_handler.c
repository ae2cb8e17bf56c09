/* The recipe of the ULFM tutorials: an error handler on a communicator made
 * by MPI_Comm_split, called for MPIX_ERR_PROC_FAILED, acknowledges the
 * failure and asks which processes are acknowledged. The group it gets must
 * hold the failed process: the failure the operation reported is already in
 * the list that MPIX_Comm_failure_ack reads, whichever thread noticed it. */
#include "ulfm_test.h"

static int handler_calls = 0, acked_size = -1, acked_rank = -1, failed_size = -1;

static void on_error(MPI_Comm *comm, int *code, ...) {
    ++handler_calls;
    if (error_class(*code) != MPIX_ERR_PROC_FAILED) return;
    MPI_Group g;
    MPIX_Comm_failure_ack(*comm);
    MPIX_Comm_failure_get_acked(*comm, &g);
    MPI_Group_size(g, &acked_size);
    if (acked_size > 0) group_ranks_in(g, *comm, &acked_rank, 1);
    MPI_Group_free(&g);
    MPIX_Comm_get_failed(*comm, &g);
    MPI_Group_size(g, &failed_size);
    MPI_Group_free(&g);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* Reversed ranks, so the split communicator's ranks are not the world's. */
    MPI_Comm c;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c) == MPI_SUCCESS, "split");
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(c, eh);
    int crank;
    MPI_Comm_rank(c, &crank);
    const int victim = 0; /* rank 0 of c: the world's last rank */
    MPI_Barrier(c);
    if (crank == victim) die_now();

    int dummy;
    int rc = MPI_Recv(&dummy, 1, MPI_INT, victim, 1, c, MPI_STATUS_IGNORE);
    CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED, "recv from the dead rank: class %d", error_class(rc));
    CHECK(handler_calls == 1, "the error handler ran %d times", handler_calls);
    CHECK(failed_size == 1, "get_failed in the handler: %d members", failed_size);
    CHECK(acked_size == 1 && acked_rank == victim, "failure_get_acked in the handler: %d members, first %d (victim %d)",
          acked_size, acked_rank, victim);
    if (crank == 1) printf("ack_in_handler: %d survivors acknowledged rank %d in the handler\n", size - 1, victim);
    MPI_Errhandler_free(&eh);
    MPI_Finalize();
    return 0;
}
