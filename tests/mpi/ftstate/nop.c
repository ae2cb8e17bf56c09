/* NOP message mode (--msg-mode nop): once a member of a
 * communicator failed, every pending and every new user operation on it
 * returns MPIX_ERR_PROC_FAILED, even between survivors, until the
 * communicator is recovered. The last rank SIGKILLs itself while every
 * survivor has a receive from another survivor pending (nobody sends it). */
#include "check.h"

int main(int argc, char **argv) {
    const int size = ftstate_init(&argc, &argv, 3);
    int comm_mode = -1, msg_mode = -1;
    CHECK_MPI(FTMPI_Comm_get_mode(MPI_COMM_WORLD, &comm_mode, &msg_mode));
    CHECK(msg_mode == FTMPI_MSG_MODE_NOP, "the job must run with --msg-mode nop (msg mode %d)", msg_mode);
    const int victim = size - 1, survivors = size - 1;

    int pending_value = 0;
    MPI_Request pending = MPI_REQUEST_NULL;
    if (check_rank_ != victim)
        CHECK_MPI(MPI_Irecv(&pending_value, 1, MPI_INT, (check_rank_ + 1) % survivors, 5, MPI_COMM_WORLD, &pending));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (check_rank_ == victim) die_by_sigkill();

    int dummy = 0;
    CHECK_CLASS(MPI_Recv(&dummy, 1, MPI_INT, victim, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);

    /* The pending receive between survivors is completed with the error
     * (polled with a deadline: a hang would be the bug). */
    int done = 0;
    MPI_Status status;
    const double give_up = MPI_Wtime() + 10.0;
    int rc = MPI_SUCCESS;
    while (!done && MPI_Wtime() < give_up) rc = MPI_Test(&pending, &done, &status);
    CHECK(done, "the pending receive between survivors was not completed within 10 s");
    CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED || error_class(status.MPI_ERROR) == MPIX_ERR_PROC_FAILED,
          "the pending receive completed with class %d / status %d", error_class(rc), error_class(status.MPI_ERROR));

    /* New operations between survivors fail at once. */
    const int peer = (check_rank_ + 1) % survivors;
    CHECK_CLASS(MPI_Send(&dummy, 1, MPI_INT, peer, 6, MPI_COMM_WORLD), MPIX_ERR_PROC_FAILED);
    int state = -1;
    CHECK_MPI(FTMPI_Comm_get_state(MPI_COMM_WORLD, &state));
    CHECK(state == FTMPI_COMM_DETECTED, "comm state %d, expected FTMPI_COMM_DETECTED", state);

    /* A communicator that does not contain the failed process is not
     * affected: MPI_COMM_SELF still works. */
    int self_value = 41, got = 0;
    MPI_Request self_req;
    CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &self_req));
    CHECK_MPI(MPI_Send(&self_value, 1, MPI_INT, 0, 7, MPI_COMM_SELF));
    CHECK_MPI(MPI_Wait(&self_req, MPI_STATUS_IGNORE));
    CHECK(got == 41, "MPI_COMM_SELF message %d", got);

    if (check_rank_ == 0) printf("nop: OK\n");
    MPI_Finalize();
    return 0;
}
