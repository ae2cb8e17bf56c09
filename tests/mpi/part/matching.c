/* How partitioned requests match and complete (MPI-4.0 §4.2.2), between
 * ranks 0 (sender) and 1 (receiver):
 *  - several sends and receives of one (peer, tag, communicator) match in
 *    the order of their init calls, not of their starts: the sender starts
 *    them in another order than the receiver, and in another order again in
 *    later rounds (the match made at the first MPI_Start persists);
 *  - requests of different tags initialised in opposite orders on the two
 *    sides match by tag;
 *  - once MPI_Parrived said every partition arrived, one MPI_Test completes
 *    the request, and it can be started again, round after round;
 *  - MPI_Pready does not wait for the receiver: the sender marks every
 *    partition ready, then sends the message the receiver waits for before
 *    its MPI_Start (that send is count 0 with MPI_DATATYPE_NULL, which
 *    names no datatype because nothing moves).
 * Other ranks only take part in the barriers. */
#include "support/check.h"

enum { PARTS = 4, COUNT = 32, TOTAL = PARTS * COUNT, N = 3, ROUNDS = 4, TAG = 5 };

/* Request i of round r carries 1000 * r + 100 * (i + 1) + index. */
static int value(int round, int i, int index) {
    return 1000 * round + 100 * (i + 1) + index;
}

static void check_data(const int *buf, int round, int i) {
    for (int k = 0; k < TOTAL; ++k)
        CHECK(buf[k] == value(round, i, k), "round %d, request %d: buf[%d] = %d, expected %d (request %d's data?)",
              round, i, k, buf[k], value(round, i, k), (buf[k] % 1000) / 100 - 1);
}

/* Sender's and receiver's start orders per round: all different, and
 * different from the init order 0, 1, 2. */
static const int send_order[ROUNDS][N] = {{2, 0, 1}, {1, 2, 0}, {2, 1, 0}, {0, 2, 1}};
static const int recv_order[ROUNDS][N] = {{0, 1, 2}, {2, 0, 1}, {1, 0, 2}, {1, 2, 0}};

static void same_tag(int rank) {
    static int bufs[N][TOTAL];
    MPI_Request reqs[N];
    for (int i = 0; i < N; ++i) {
        if (rank == 0)
            CHECK_MPI(MPI_Psend_init(bufs[i], PARTS, COUNT, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[i]));
        else
            CHECK_MPI(MPI_Precv_init(bufs[i], PARTS, COUNT, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[i]));
    }
    for (int round = 0; round < ROUNDS; ++round) {
        MPI_Status st[N];
        if (rank == 0) {
            for (int k = 0; k < N; ++k) {
                const int i = send_order[round][k];
                CHECK_MPI(MPI_Start(&reqs[i]));
                for (int p = PARTS - 1; p >= 0; --p) {
                    for (int c = 0; c < COUNT; ++c) bufs[i][p * COUNT + c] = value(round, i, p * COUNT + c);
                    CHECK_MPI(MPI_Pready(p, reqs[i]));
                }
            }
            CHECK_MPI(MPI_Waitall(N, reqs, st));
        } else {
            for (int k = 0; k < N; ++k) {
                const int i = recv_order[round][k];
                for (int j = 0; j < TOTAL; ++j) bufs[i][j] = -1;
                CHECK_MPI(MPI_Start(&reqs[i]));
            }
            CHECK_MPI(MPI_Waitall(N, reqs, st));
            for (int i = 0; i < N; ++i) {
                check_data(bufs[i], round, i);
                CHECK(st[i].MPI_SOURCE == 0 && st[i].MPI_TAG == TAG, "status of request %d: source %d, tag %d", i,
                      st[i].MPI_SOURCE, st[i].MPI_TAG);
                int n = -1;
                CHECK_MPI(MPI_Get_count(&st[i], MPI_INT, &n));
                CHECK(n == TOTAL, "request %d received %d ints, expected %d", i, n, TOTAL);
            }
        }
    }
    for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Request_free(&reqs[i]));
}

/* Tags 0, 1, 2 initialised 2, 1, 0 by the sender and 0, 1, 2 by the
 * receiver, started 0, 1, 2 by both. */
static void different_tags(int rank) {
    static int bufs[N][TOTAL];
    MPI_Request reqs[N];
    for (int k = 0; k < N; ++k) {
        const int i = rank == 0 ? N - 1 - k : k;
        if (rank == 0)
            CHECK_MPI(MPI_Psend_init(bufs[i], PARTS, COUNT, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[i]));
        else
            CHECK_MPI(MPI_Precv_init(bufs[i], PARTS, COUNT, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[i]));
    }
    for (int i = 0; i < N; ++i) {
        if (rank == 0) {
            for (int j = 0; j < TOTAL; ++j) bufs[i][j] = value(0, i, j);
            CHECK_MPI(MPI_Start(&reqs[i]));
            CHECK_MPI(MPI_Pready_range(0, PARTS - 1, reqs[i]));
        } else {
            for (int j = 0; j < TOTAL; ++j) bufs[i][j] = -1;
            CHECK_MPI(MPI_Start(&reqs[i]));
        }
    }
    MPI_Status st[N];
    CHECK_MPI(MPI_Waitall(N, reqs, st));
    if (rank == 1)
        for (int i = 0; i < N; ++i) {
            check_data(bufs[i], 0, i);
            CHECK(st[i].MPI_TAG == i, "request %d's status has tag %d", i, st[i].MPI_TAG);
        }
    for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Request_free(&reqs[i]));
}

/* Every round, the receiver polls MPI_Parrived until all partitions are in;
 * a single MPI_Test must then complete the request. */
static void arrived_then_complete(int rank) {
    enum { RUNS = 50 };
    static int buf[TOTAL];
    MPI_Request req;
    if (rank == 0)
        CHECK_MPI(MPI_Psend_init(buf, PARTS, COUNT, MPI_INT, 1, TAG + 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    else
        CHECK_MPI(MPI_Precv_init(buf, PARTS, COUNT, MPI_INT, 0, TAG + 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    for (int run = 0; run < RUNS; ++run) {
        CHECK_MPI(MPI_Start(&req));
        int flag = 0;
        if (rank == 0) {
            for (int j = 0; j < TOTAL; ++j) buf[j] = value(run, 0, j);
            for (int p = 0; p < PARTS; ++p) CHECK_MPI(MPI_Pready(p, req));
            do CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            while (!flag);
            continue;
        }
        for (int p = 0; p < PARTS; ++p) {
            do CHECK_MPI(MPI_Parrived(req, p, &flag));
            while (!flag);
        }
        check_data(buf, run, 0);
        MPI_Status st;
        CHECK_MPI(MPI_Request_get_status(req, &flag, &st));
        CHECK(flag, "run %d: every partition arrived, but MPI_Request_get_status says the request is pending", run);
        CHECK_MPI(MPI_Test(&req, &flag, &st));
        CHECK(flag, "run %d: every partition arrived, but MPI_Test did not complete the request", run);
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == TAG + 1, "run %d: status source %d, tag %d", run, st.MPI_SOURCE,
              st.MPI_TAG);
    }
    CHECK_MPI(MPI_Request_free(&req));
}

/* MPI_Pready returns without the receiver having started (the receiver
 * starts only after the plain message that follows). */
static void pready_does_not_wait(int rank) {
    int a = rank == 0 ? 42 : 0;
    MPI_Request req;
    if (rank == 0) {
        CHECK_MPI(MPI_Psend_init(&a, 1, 1, MPI_INT, 1, TAG + 2, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        CHECK_MPI(MPI_Start(&req));
        CHECK_MPI(MPI_Pready(0, req));
        CHECK_MPI(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, 1, TAG + 2, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Precv_init(&a, 1, 1, MPI_INT, 0, TAG + 2, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        MPI_Status st;
        CHECK_MPI(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, 0, TAG + 2, MPI_COMM_WORLD, &st));
        int n = -1;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
        CHECK(n == 0, "the empty message carried %d bytes", n);
        CHECK_MPI(MPI_Start(&req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        CHECK(a == 42, "received %d, expected 42", a);
    }
    CHECK_MPI(MPI_Request_free(&req));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    CHECK(size >= 2, "needs 2 ranks, has %d", size);
    if (rank < 2) {
        same_tag(rank);
        different_tags(rank);
        arrived_then_complete(rank);
        pready_does_not_wait(rank);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
