/* Non-overtaking: messages from one sender on one communicator and tag set
 * arrive in the order sent, across eager and rendezvous sizes, whether the
 * receiver names the source or uses MPI_ANY_SOURCE. */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

#define MESSAGES 60

/* Sizes cycle through eager and rendezvous (the eager limit is 64 KiB). */
static int size_of(int i) {
    static const int sizes[] = {4, 0, 1000, 70000, 16, 200000, 8};
    return sizes[i % 7];
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    char *buf = malloc(200000 + 4);

    if (rank != 0) {
        /* Every sender: MESSAGES messages, each starting with its sequence number. */
        for (int i = 0; i < MESSAGES; ++i) {
            int n = size_of(i) < 4 ? 4 : size_of(i);
            memset(buf, rank, (size_t)n);
            memcpy(buf, &i, sizeof i);
            CHECK_MPI(MPI_Send(buf, n, MPI_BYTE, 0, i % 3, MPI_COMM_WORLD));
        }
    } else {
        int *next = calloc((size_t)size, sizeof(int));
        /* Half by named source in rank order, half by ANY_SOURCE: both keep each sender's order. */
        for (int src = 1; src < size; ++src) {
            for (int i = 0; i < MESSAGES / 2; ++i) {
                MPI_Status st;
                CHECK_MPI(MPI_Recv(buf, 200004, MPI_BYTE, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
                int seq;
                memcpy(&seq, buf, sizeof seq);
                CHECK(seq == next[src], "from %d got #%d, expected #%d", src, seq, next[src]);
                CHECK(st.MPI_TAG == seq % 3, "tag %d for #%d", st.MPI_TAG, seq);
                ++next[src];
            }
        }
        for (int k = 0; k < (size - 1) * (MESSAGES - MESSAGES / 2); ++k) {
            MPI_Status st;
            CHECK_MPI(MPI_Recv(buf, 200004, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
            int seq, count;
            memcpy(&seq, buf, sizeof seq);
            CHECK(seq == next[st.MPI_SOURCE], "from %d got #%d, expected #%d", st.MPI_SOURCE, seq, next[st.MPI_SOURCE]);
            MPI_Get_count(&st, MPI_BYTE, &count);
            int want = size_of(seq) < 4 ? 4 : size_of(seq);
            CHECK(count == want, "#%d from %d: %d bytes, expected %d", seq, st.MPI_SOURCE, count, want);
            CHECK((unsigned char)buf[count - 1] == (unsigned char)st.MPI_SOURCE || count == 4, "payload of #%d", seq);
            ++next[st.MPI_SOURCE];
        }
        free(next);
    }
    /* Tag selection may take later messages first; per tag the order holds.
     * (The barrier keeps these out of the ANY_TAG receives above.) */
    MPI_Barrier(MPI_COMM_WORLD);
    if (size >= 2) {
        if (rank == 1) {
            for (int i = 0; i < 10; ++i) CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, i % 2, MPI_COMM_WORLD));
        } else if (rank == 0) {
            int v;
            for (int i = 1; i < 10; i += 2) {
                CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK(v == i, "odd tag: got %d expected %d", v, i);
            }
            for (int i = 0; i < 10; i += 2) {
                CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                CHECK(v == i, "even tag: got %d expected %d", v, i);
            }
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
