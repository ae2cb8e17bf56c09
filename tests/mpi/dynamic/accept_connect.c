/* MPI_Comm_accept / MPI_Comm_connect inside one job: MPI_COMM_WORLD split
 * in a low and a high half; the low half's root opens a port and hands its
 * name to the high half's root with MPI_Send; the halves accept and connect
 * twice through the same port, exchange messages over the
 * intercommunicators, merge one and allreduce over it. Needs at least 2
 * ranks. */
#include "support/check.h"

#include <string.h>

/* One connection: checks its shape and the messages across. */
static void check_connection(MPI_Comm inter, int low, int half_rank, int low_size, int high_size, int round) {
    int flag, remote_size, irank;
    CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag == 1, "round %d: not an intercommunicator", round);
    CHECK_MPI(MPI_Comm_remote_size(inter, &remote_size));
    CHECK(remote_size == (low ? high_size : low_size), "round %d: remote size %d", round, remote_size);
    MPI_Comm_rank(inter, &irank);
    CHECK(irank == half_rank, "round %d: rank %d in the intercommunicator, %d in the half", round, irank, half_rank);

    /* The roots swap a value; then every rank sends its rank to the remote
     * rank of the same number when there is one. */
    int mine = (low ? 1000 : 2000) + round, theirs = -1;
    if (half_rank == 0) {
        CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_INT, 0, 5, &theirs, 1, MPI_INT, 0, 5, inter, MPI_STATUS_IGNORE));
        CHECK(theirs == (low ? 2000 : 1000) + round, "round %d: root got %d", round, theirs);
    }
    if (half_rank < remote_size) {
        int got = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Sendrecv(&half_rank, 1, MPI_INT, half_rank, 6, &got, 1, MPI_INT, half_rank, 6, inter, &st));
        CHECK(got == half_rank && st.MPI_SOURCE == half_rank, "round %d: got %d from %d", round, got, st.MPI_SOURCE);
    }
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size >= 2, "needs at least 2 ranks");

    const int low_size = size / 2, high_size = size - size / 2;
    const int low = rank < low_size;
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, low ? 0 : 1, rank, &half));
    MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
    int half_rank;
    MPI_Comm_rank(half, &half_rank);

    char port[MPI_MAX_PORT_NAME];
    memset(port, 0, sizeof port);
    if (rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK(strlen(port) > 0 && strlen(port) < MPI_MAX_PORT_NAME, "port name \"%s\"", port);
        CHECK_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, low_size, 1, MPI_COMM_WORLD));
    } else if (rank == low_size) {
        CHECK_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }

    MPI_Comm inter[2];
    for (int round = 0; round < 2; ++round) {
        if (low)
            CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter[round]));
        else
            CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter[round]));
        check_connection(inter[round], low, half_rank, low_size, high_size, round);
    }

    /* Merge the first, low half first, and count over the whole job. */
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(inter[0], low ? 0 : 1, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK(msize == size, "merged size %d", msize);
    CHECK(mrank == rank, "merged rank %d, world rank %d", mrank, rank);
    int sum = -1;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK(sum == size * (size - 1) / 2, "allreduce over the merged communicator gave %d", sum);

    /* The second connection still works after the first is gone. */
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_free(&inter[0]));
    int v = half_rank, total = -1;
    CHECK_MPI(MPI_Allreduce(&v, &total, 1, MPI_INT, MPI_SUM, inter[1]));
    const int other = low ? high_size : low_size;
    CHECK(total == other * (other - 1) / 2, "allreduce over the intercommunicator gave %d", total);
    CHECK_MPI(MPI_Comm_free(&inter[1]));

    if (rank == 0) CHECK_MPI(MPI_Close_port(port));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("dynamic accept/connect: ok (%d ranks)\n", size);
    MPI_Finalize();
    return 0;
}
