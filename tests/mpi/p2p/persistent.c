/* Persistent requests: Send_init/Recv_init/Ssend_init/Bsend_init/
 * Rsend_init reused over many rounds with Start/Startall, inactive requests
 * in Wait/Test, and Request_free of an inactive request. */
#include "support/check.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    enum { N = 20000 }; /* 80 KB: rendezvous */
    int *out = malloc(N * sizeof(int)), *in = malloc(N * sizeof(int));
    int small_out, small_in;

    MPI_Request reqs[4];
    CHECK_MPI(MPI_Recv_init(in, N, MPI_INT, prev, 1, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Send_init(out, N, MPI_INT, next, 1, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Recv_init(&small_in, 1, MPI_INT, prev, 2, MPI_COMM_WORLD, &reqs[2]));
    CHECK_MPI(MPI_Ssend_init(&small_out, 1, MPI_INT, next, 2, MPI_COMM_WORLD, &reqs[3]));

    /* Inactive persistent requests complete at once with an empty status. */
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&reqs[0], &st));
    CHECK(reqs[0] != MPI_REQUEST_NULL, "Wait freed an inactive persistent request");
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "inactive status");

    for (int round = 0; round < 25; ++round) {
        for (int i = 0; i < N; ++i) out[i] = round * 7 + rank + i;
        small_out = round * 100 + rank;
        CHECK_MPI(MPI_Startall(4, reqs));
        MPI_Status sts[4];
        CHECK_MPI(MPI_Waitall(4, reqs, sts));
        for (int i = 0; i < 4; ++i) CHECK(reqs[i] != MPI_REQUEST_NULL, "Waitall freed persistent request %d", i);
        CHECK(small_in == round * 100 + prev, "round %d: small %d", round, small_in);
        CHECK(in[N - 1] == round * 7 + prev + N - 1 && in[0] == round * 7 + prev, "round %d data", round);
        CHECK(sts[0].MPI_SOURCE == prev && sts[0].MPI_TAG == 1, "round %d status", round);
    }
    for (int i = 0; i < 4; ++i) CHECK_MPI(MPI_Request_free(&reqs[i]));
    CHECK(reqs[0] == MPI_REQUEST_NULL, "Request_free did not reset the handle");

    /* Bsend_init and Rsend_init. */
    int bufsize = 4 * (int)sizeof(int) + 4 * MPI_BSEND_OVERHEAD;
    void *attached = malloc((size_t)bufsize);
    MPI_Buffer_attach(attached, bufsize);
    MPI_Request b, r, rr;
    int token = 0, ready = 0;
    CHECK_MPI(MPI_Bsend_init(&small_out, 1, MPI_INT, next, 3, MPI_COMM_WORLD, &b));
    CHECK_MPI(MPI_Rsend_init(&small_out, 1, MPI_INT, next, 4, MPI_COMM_WORLD, &r));
    for (int round = 0; round < 5; ++round) {
        small_out = 1000 + round;
        CHECK_MPI(MPI_Start(&b));
        CHECK_MPI(MPI_Wait(&b, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Recv(&small_in, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(small_in == 1000 + round, "bsend round %d: %d", round, small_in);
        /* Ready mode: the receiver posts, then tells the sender. */
        CHECK_MPI(MPI_Irecv(&small_in, 1, MPI_INT, prev, 4, MPI_COMM_WORLD, &rr));
        CHECK_MPI(
            MPI_Sendrecv(&token, 1, MPI_INT, prev, 5, &ready, 1, MPI_INT, next, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Start(&r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&rr, MPI_STATUS_IGNORE));
        CHECK(small_in == 1000 + round, "rsend round %d: %d", round, small_in);
    }
    MPI_Request_free(&b);
    MPI_Request_free(&r);
    void *detached;
    int dsize;
    MPI_Buffer_detach(&detached, &dsize);
    free(attached);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
