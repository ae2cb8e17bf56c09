/* Receives posted while their eager messages are still arriving: rank 0
 * streams many 20–60 KB eager messages with distinct tags; the receiver
 * posts matching receives one by one as they stream in (each may meet its
 * message half-read), by tag, in order and by ANY_TAG. Regression test for
 * a hang where such a receive and its message missed each other. */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

#define MESSAGES 300

static int bytes_of(int i) {
    return 20000 + (i * 7919) % 40000;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    char *buf = malloc(60000);
    for (int round = 0; round < 3; ++round) {
        if (rank != 0) {
            for (int i = 0; i < MESSAGES; ++i) {
                int n = bytes_of(i);
                memset(buf, (char)(i + rank), (size_t)n);
                CHECK_MPI(MPI_Send(buf, n, MPI_BYTE, 0, i, MPI_COMM_WORLD));
            }
        } else {
            for (int i = 0; i < MESSAGES * (size - 1); ++i) {
                MPI_Status st;
                int tag = round == 1 ? MPI_ANY_TAG : i / (size - 1);
                CHECK_MPI(MPI_Recv(buf, 60000, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
                int n;
                MPI_Get_count(&st, MPI_BYTE, &n);
                CHECK(n == bytes_of(st.MPI_TAG), "tag %d: %d bytes", st.MPI_TAG, n);
                CHECK(buf[0] == (char)(st.MPI_TAG + st.MPI_SOURCE) && buf[n - 1] == buf[0], "tag %d payload",
                      st.MPI_TAG);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
