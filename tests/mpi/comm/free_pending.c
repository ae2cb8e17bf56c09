/* MPI_Comm_free with operations still pending on the communicator: they
 * complete normally (the standard frees it only once nothing uses it). Each
 * rank posts a receive and a send on a dup of MPI_COMM_WORLD, frees the dup,
 * makes and frees other communicators (so freed memory is reused), and only
 * then waits: data and status must be right, small and large messages.
 * Also a persistent receive whose communicator is freed while it is active. */
#include "support/check.h"

#include <stdlib.h>

static void churn(void) {
    for (int i = 0; i < 4; ++i) {
        MPI_Comm tmp;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &tmp));
        CHECK_MPI(MPI_Comm_free(&tmp));
    }
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    const int counts[] = {4, 1 << 18}; /* eager, rendezvous (ints) */
    int *out = malloc(sizeof(int) << 18), *in = malloc(sizeof(int) << 18);

    for (int k = 0; k < 2; ++k) {
        const int n = counts[k];
        for (int i = 0; i < n; ++i) out[i] = rank * 1000 + i;
        MPI_Comm c;
        MPI_Request rs[2];
        MPI_Status st[2];
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_MPI(MPI_Irecv(in, n, MPI_INT, prev, 7, c, &rs[0]));
        CHECK_MPI(MPI_Isend(out, n, MPI_INT, next, 7, c, &rs[1]));
        CHECK_MPI(MPI_Comm_free(&c));
        CHECK(c == MPI_COMM_NULL, "MPI_Comm_free did not set the handle to MPI_COMM_NULL");
        churn();
        CHECK_MPI(MPI_Waitall(2, rs, st));
        CHECK(st[0].MPI_SOURCE == prev && st[0].MPI_TAG == 7, "status of %d ints: source %d tag %d", n,
              st[0].MPI_SOURCE, st[0].MPI_TAG);
        for (int i = 0; i < n; ++i) CHECK(in[i] == prev * 1000 + i, "%d ints: element %d is %d", n, i, in[i]);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }

    /* A started persistent receive outlives its communicator's free. */
    MPI_Comm c;
    MPI_Request pr;
    MPI_Status ps;
    int v = -1, w = rank;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK_MPI(MPI_Recv_init(&v, 1, MPI_INT, prev, 8, c, &pr));
    CHECK_MPI(MPI_Start(&pr));
    CHECK_MPI(MPI_Send(&w, 1, MPI_INT, next, 8, c));
    CHECK_MPI(MPI_Comm_free(&c));
    churn();
    CHECK_MPI(MPI_Wait(&pr, &ps));
    CHECK(v == prev && ps.MPI_SOURCE == prev, "persistent receive: value %d source %d", v, ps.MPI_SOURCE);
    CHECK_MPI(MPI_Request_free(&pr));

    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
