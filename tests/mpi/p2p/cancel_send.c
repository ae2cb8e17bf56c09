/* MPI_Cancel of sends, as conformance suites test it: every even rank sends
 * to the next odd rank, which posts no receive yet. The sender cancels and
 * waits (this must return), then tells the receiver whether the cancel took
 * effect; the receiver receives the message only if it did not. A send that
 * waits for its receiver (a large message, MPI_Issend, a started persistent
 * send) is unmatched, so its cancel must succeed, and the cancelled message
 * must be gone from the receiver. Also to self (a synchronous send). */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

enum { data_tag = 5, verdict_tag = 6, small = 8, large = 1 << 20 };

typedef enum { isend, issend, send_init, ibsend } mode;
static const char *mode_name[] = {"MPI_Isend", "MPI_Issend", "MPI_Send_init", "MPI_Ibsend"};

/* Starts the send; returns its request (a persistent one in *persistent). */
static MPI_Request start(mode m, const char *buf, int n, int dest, int *persistent) {
    MPI_Request r;
    *persistent = 0;
    switch (m) {
    case isend: CHECK_MPI(MPI_Isend(buf, n, MPI_CHAR, dest, data_tag, MPI_COMM_WORLD, &r)); break;
    case issend: CHECK_MPI(MPI_Issend(buf, n, MPI_CHAR, dest, data_tag, MPI_COMM_WORLD, &r)); break;
    case send_init:
        CHECK_MPI(MPI_Send_init(buf, n, MPI_CHAR, dest, data_tag, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Start(&r));
        *persistent = 1;
        break;
    case ibsend: CHECK_MPI(MPI_Ibsend(buf, n, MPI_CHAR, dest, data_tag, MPI_COMM_WORLD, &r)); break;
    }
    return r;
}

/* Whether a cancel of mode m with n bytes must succeed here: the send waits
 * for the receiver, which has not posted its receive. */
static int must_cancel(mode m, int n) {
    return m == issend || (m != ibsend && n == large);
}

static void sender(mode m, int n, int dest, char *buf) {
    for (int i = 0; i < n; ++i) buf[i] = (char)(i * 7 + m);
    int persistent;
    MPI_Request r = start(m, buf, n, dest, &persistent);
    MPI_Status st;
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    int cancelled = 0;
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    if (must_cancel(m, n)) CHECK(cancelled, "%s of %d bytes to an unposted receive was not cancelled", mode_name[m], n);
    if (persistent) CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Send(&cancelled, 1, MPI_INT, dest, verdict_tag, MPI_COMM_WORLD));
}

static void receiver(mode m, int n, int source, char *buf) {
    int cancelled = -1;
    CHECK_MPI(MPI_Recv(&cancelled, 1, MPI_INT, source, verdict_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (!cancelled) {
        MPI_Status st;
        memset(buf, 0, (size_t)n);
        CHECK_MPI(MPI_Recv(buf, n, MPI_CHAR, source, data_tag, MPI_COMM_WORLD, &st));
        for (int i = 0; i < n; ++i) CHECK(buf[i] == (char)(i * 7 + m), "%s: byte %d wrong", mode_name[m], i);
    }
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    char *buf = malloc(large);
    int bsize = 2 * (large + MPI_BSEND_OVERHEAD);
    char *bbuf = malloc((size_t)bsize);
    CHECK_MPI(MPI_Buffer_attach(bbuf, bsize));

    const int partner = rank % 2 == 0 ? rank + 1 : rank - 1;
    const int paired = partner < size;
    for (int m = isend; m <= ibsend; ++m) {
        for (int n = small; n <= large; n = n == small ? large : large + 1) {
            if (paired && rank % 2 == 0)
                sender((mode)m, n, partner, buf);
            else if (paired)
                receiver((mode)m, n, partner, buf);
            /* A cancelled message is gone: nothing is left to match. */
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
            int flag = 1;
            CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, data_tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
            CHECK(!flag, "a message of %s (%d bytes) is still there after its cancel", mode_name[m], n);
            CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        }
    }

    /* To self: a synchronous send nobody receives is cancelled. */
    MPI_Request r;
    MPI_Status st;
    int cancelled = 0, flag = 1;
    CHECK_MPI(MPI_Issend(buf, small, MPI_CHAR, rank, data_tag, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Cancel(&r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
    CHECK(cancelled, "MPI_Issend to self was not cancelled");
    CHECK_MPI(MPI_Iprobe(rank, data_tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "the cancelled message to self is still there");

    void *detached;
    CHECK_MPI(MPI_Buffer_detach(&detached, &bsize));
    free(bbuf);
    free(buf);
    MPI_Finalize();
    return 0;
}
