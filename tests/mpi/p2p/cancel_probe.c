/* MPI_Cancel of receives, and probing: Probe/Iprobe (status without
 * receiving), Mprobe/Improbe + Mrecv/Imrecv (the matched message cannot be
 * stolen by another receive), eager and rendezvous sizes, MPI_PROC_NULL. */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);

    /* Cancel a receive nobody sends to; the request completes as cancelled. */
    int x = -1;
    MPI_Request req;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK_MPI(MPI_Wait(&req, &st));
    int cancelled = 0;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled, "cancelled receive not reported as cancelled");
    CHECK(x == -1, "cancelled receive wrote its buffer");

    /* A cancelled receive must not take a message meant for a later one. */
    int v = 5;
    CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, rank, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &st));
    CHECK(x == 5, "self message after cancel: %d", x);
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(!cancelled, "a normal receive reported cancelled");

    /* Probe and Mprobe, with every other rank sending 2 messages to rank 0. */
    const int big = 300000; /* rendezvous */
    char *buf = malloc((size_t)big);
    if (rank != 0) {
        memset(buf, rank, (size_t)big);
        CHECK_MPI(MPI_Send(buf, 100 + rank, MPI_BYTE, 0, 20, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(buf, big - rank, MPI_BYTE, 0, 21, MPI_COMM_WORLD));
    } else {
        for (int k = 0; k < size - 1; ++k) {
            CHECK_MPI(MPI_Probe(MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &st));
            int n;
            MPI_Get_count(&st, MPI_BYTE, &n);
            CHECK(n == 100 + st.MPI_SOURCE, "probe count %d from %d", n, st.MPI_SOURCE);
            int src = st.MPI_SOURCE;
            CHECK_MPI(MPI_Recv(buf, n, MPI_BYTE, src, 20, MPI_COMM_WORLD, &st));
            CHECK(buf[n - 1] == (char)src, "probed message payload");
        }
        for (int k = 0; k < size - 1; ++k) {
            MPI_Message msg;
            int flag = 0;
            while (!flag) CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &flag, &msg, &st));
            int n, src = st.MPI_SOURCE;
            MPI_Get_count(&st, MPI_BYTE, &n);
            CHECK(n == big - src, "improbe count %d from %d", n, src);
            /* Another receive posted now must not take the matched message. */
            int flag2 = 1;
            CHECK_MPI(MPI_Iprobe(src, 21, MPI_COMM_WORLD, &flag2, MPI_STATUS_IGNORE));
            CHECK(!flag2, "a matched message is still visible to Iprobe");
            memset(buf, 0, (size_t)big);
            if (k % 2) {
                CHECK_MPI(MPI_Mrecv(buf, big, MPI_BYTE, &msg, &st));
            } else {
                CHECK_MPI(MPI_Imrecv(buf, big, MPI_BYTE, &msg, &req));
                CHECK_MPI(MPI_Wait(&req, &st));
            }
            CHECK(msg == MPI_MESSAGE_NULL, "message handle not reset");
            CHECK(st.MPI_SOURCE == src && st.MPI_TAG == 21, "mrecv status");
            CHECK(buf[0] == (char)src && buf[n - 1] == (char)src, "mrecv payload from %d", src);
        }
    }
    /* Mprobe from MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC. */
    MPI_Message none;
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &none, &st));
    CHECK(none == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL mprobe");
    CHECK_MPI(MPI_Mrecv(&x, 1, MPI_INT, &none, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL mrecv");

    /* Iprobe with nothing there says so. */
    int flag = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 777, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag, "Iprobe found a message nobody sent");
    free(buf);
    MPI_Finalize();
    return 0;
}
