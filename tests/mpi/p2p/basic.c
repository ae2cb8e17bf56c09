/* Point-to-point basics: a ring of blocking sends, self-sends, MPI_PROC_NULL,
 * and what MPI_Status/MPI_Get_count report. */
#include "support/check.h"

#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);

    /* A token goes around the ring; each rank adds its rank. */
    int token = 0;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Status st;
    if (rank == 0) {
        token = 1000;
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &st));
        CHECK(token == 1000 + size * (size - 1) / 2, "token %d", token);
    } else {
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &st));
        token += rank;
        CHECK_MPI(MPI_Send(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD));
    }
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 7, "status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 1, "count %d", count);

    /* Self-send: the message waits in the unexpected queue. */
    double out[5] = {1, 2, 3, 4, 5}, in[8] = {0};
    MPI_Request req;
    CHECK_MPI(MPI_Isend(out, 5, MPI_DOUBLE, rank, 3, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Recv(in, 8, MPI_DOUBLE, rank, 3, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(req == MPI_REQUEST_NULL, "request not freed by MPI_Wait");
    CHECK(memcmp(in, out, sizeof out) == 0, "self-send data differs");
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &count));
    CHECK(count == 5, "self count %d", count);
    CHECK_MPI(MPI_Get_count(&st, MPI_LONG_DOUBLE, &count));
    CHECK(count == MPI_UNDEFINED || sizeof(long double) == 8, "40 bytes as long doubles: %d", count);

    /* MPI_PROC_NULL: completes at once, status says so, buffer untouched. */
    int untouched = 42;
    CHECK_MPI(MPI_Send(&untouched, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&untouched, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st));
    CHECK(untouched == 42, "PROC_NULL receive wrote %d", untouched);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "PROC_NULL status %d %d", st.MPI_SOURCE,
          st.MPI_TAG);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "PROC_NULL count %d", count);

    /* Zero-byte messages between neighbours. */
    CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_INT, next, 9, NULL, 0, MPI_INT, prev, 9, MPI_COMM_WORLD, &st));
    CHECK(st.MPI_SOURCE == prev, "sendrecv source %d", st.MPI_SOURCE);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "zero-byte count %d", count);

    /* Sendrecv_replace swaps values around the ring. */
    int v = rank;
    CHECK_MPI(MPI_Sendrecv_replace(&v, 1, MPI_INT, next, 5, prev, 5, MPI_COMM_WORLD, &st));
    CHECK(v == prev, "replace got %d, want %d", v, prev);

    int version, subversion;
    MPI_Get_version(&version, &subversion);
    CHECK(version == 3 && subversion == 1, "version %d.%d", version, subversion);
    CHECK(MPI_Wtime() > 0 && MPI_Wtick() > 0, "clock");

    CHECK_MPI(MPI_Finalize());
    int fin = 0;
    MPI_Finalized(&fin);
    CHECK(fin, "not finalized");
    return 0;
}
