/* Partitioned communication (MPI-4.0 chapter 4): a ring where each rank
 * sends to the next and receives from the previous one with persistent
 * partitioned requests, over several rounds, partitions marked in every
 * order and through all three MPI_Pready forms, the two sides partitioned
 * differently; MPI_Parrived; MPI_PROC_NULL peers; a partitioned message
 * never matching a plain receive; and every wrong use with its class (the
 * request and its partitions unharmed). */
#include "support/check.h"

#include <limits.h>
#include <string.h>
#include <time.h>

enum { SEND_PARTS = 8, SEND_COUNT = 16, RECV_PARTS = 4, RECV_COUNT = 32, TOTAL = SEND_PARTS * SEND_COUNT, TAG = 7 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void check_init_errors(int size) {
    MPI_Request r = MPI_REQUEST_NULL;
    int buf[4] = {0, 0, 0, 0};
    CHECK_CLASS(MPI_Psend_init(buf, 0, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Psend_init(buf, 2, -1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Psend_init(buf, 2, INT_MAX, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Psend_init(buf, 2, 2, MPI_INT, size, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Psend_init(buf, 2, 2, MPI_INT, 0, -1, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Psend_init(buf, 2, 2, MPI_DATATYPE_NULL, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Psend_init(buf, 2, 2, MPI_INT, 0, TAG, MPI_COMM_NULL, MPI_INFO_NULL, &r), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Psend_init(buf, 2, 2, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_REQUEST);
    /* A partitioned receive names its source and its tag. */
    CHECK_CLASS(MPI_Precv_init(buf, 2, 2, MPI_INT, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                MPI_ERR_RANK);
    CHECK_CLASS(MPI_Precv_init(buf, 2, 2, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r), MPI_ERR_TAG);
    CHECK(r == MPI_REQUEST_NULL, "a refused init set the request");
    /* Calls on requests that are not partitioned ones. */
    int flag = 0;
    CHECK_CLASS(MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Send_init(buf, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, &r));
    CHECK_CLASS(MPI_Pready(0, r), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Request_free(&r));
}

/* One round of the ring: the send's partitions in a scrambled order through
 * the three forms, with wrong uses in between. */
static void round_trip(int round, int rank, int prev, MPI_Request reqs[2], int *out, int *in) {
    MPI_Request send = reqs[0], recv = reqs[1];
    for (int i = 0; i < TOTAL; ++i) in[i] = -1;
    CHECK_MPI(MPI_Startall(2, reqs));
    int flag = 1;
    CHECK_CLASS(MPI_Parrived(send, 0, &flag), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Pready(0, recv), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Parrived(recv, RECV_PARTS, &flag), MPI_ERR_ARG);

    /* Partition p carries values 1000 * round + rank * TOTAL + index. */
    const int order[SEND_PARTS] = {5, 2, 7, 0, 1, 3, 4, 6};
    for (int k = 0; k < SEND_PARTS; ++k) {
        const int p = order[k];
        for (int i = 0; i < SEND_COUNT; ++i) out[p * SEND_COUNT + i] = 1000 * round + rank * TOTAL + p * SEND_COUNT + i;
    }
    CHECK_MPI(MPI_Pready(5, send));
    CHECK_CLASS(MPI_Pready(5, send), MPI_ERR_ARG); /* twice in a round */
    CHECK_CLASS(MPI_Pready(SEND_PARTS, send), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pready(-1, send), MPI_ERR_ARG);
    const int list[2] = {2, 7};
    CHECK_MPI(MPI_Pready_list(2, list, send));
    const int bad_list[2] = {0, 5}; /* 5 is ready already: 0 must stay unmarked */
    CHECK_CLASS(MPI_Pready_list(2, bad_list, send), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pready_range(3, 1, send), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Pready_range(4, SEND_PARTS, send), MPI_ERR_ARG);
    CHECK_MPI(MPI_Pready_range(0, 1, send)); /* 0 was left unmarked by the refused list */
    CHECK_MPI(MPI_Pready_range(3, 4, send));
    CHECK_MPI(MPI_Pready(6, send)); /* the last one: the message goes */
    CHECK_CLASS(MPI_Pready(6, send), MPI_ERR_REQUEST);

    const double deadline = now() + 20;
    flag = 0;
    while (!flag && now() < deadline) CHECK_MPI(MPI_Parrived(recv, RECV_PARTS - 1, &flag));
    CHECK(flag, "round %d: the message did not arrive in 20 s", round);
    MPI_Status st[2];
    CHECK_MPI(MPI_Waitall(2, reqs, st));
    CHECK(reqs[0] == send && reqs[1] == recv, "Waitall freed persistent requests");
    CHECK(st[1].MPI_SOURCE == prev && st[1].MPI_TAG == TAG, "round %d: status source %d tag %d", round,
          st[1].MPI_SOURCE, st[1].MPI_TAG);
    int got = 0;
    CHECK_MPI(MPI_Get_count(&st[1], MPI_INT, &got));
    CHECK(got == TOTAL, "round %d: received %d ints", round, got);
    for (int i = 0; i < TOTAL; ++i)
        CHECK(in[i] == 1000 * round + prev * TOTAL + i, "round %d: element %d is %d", round, i, in[i]);
    /* Inactive again: no Pready, and Parrived answers true. */
    CHECK_CLASS(MPI_Pready(0, send), MPI_ERR_REQUEST);
    flag = 0;
    CHECK_MPI(MPI_Parrived(recv, 0, &flag));
    CHECK(flag, "Parrived on an inactive request answered false");
}

/* Partitioned messages match only partitioned receives: a plain receive
 * posted first with the same tag gets the plain message sent after. */
static void check_apart(int rank, int next, int prev) {
    int plain_in = -1, plain_out = 4242 + rank, part_in[2] = {-1, -1}, part_out[2] = {rank, -rank};
    MPI_Request plain, reqs[2];
    CHECK_MPI(MPI_Irecv(&plain_in, 1, MPI_INT, prev, TAG, MPI_COMM_WORLD, &plain));
    /* A derived type the program frees at once: the request holds it. */
    MPI_Datatype one_int;
    CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &one_int));
    CHECK_MPI(MPI_Type_commit(&one_int));
    CHECK_MPI(MPI_Psend_init(part_out, 2, 1, one_int, next, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]));
    CHECK_MPI(MPI_Type_free(&one_int));
    CHECK_MPI(MPI_Precv_init(part_in, 1, 2, MPI_INT, prev, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]));
    CHECK_MPI(MPI_Startall(2, reqs));
    CHECK_MPI(MPI_Pready_range(0, 1, reqs[0]));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    CHECK(part_in[0] == prev && part_in[1] == -prev, "the partitioned message carried %d %d", part_in[0], part_in[1]);
    CHECK_MPI(MPI_Send(&plain_out, 1, MPI_INT, next, TAG, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&plain, MPI_STATUS_IGNORE));
    CHECK(plain_in == 4242 + prev, "the plain receive got %d", plain_in);
    CHECK_MPI(MPI_Request_free(&reqs[0]));
    CHECK_MPI(MPI_Request_free(&reqs[1]));
    CHECK(reqs[0] == MPI_REQUEST_NULL, "Request_free left the request");
}

/* MPI_PROC_NULL on both sides: the rounds complete at once. */
static void check_proc_null(void) {
    int buf[4] = {1, 2, 3, 4};
    MPI_Request reqs[2];
    MPI_Status st[2];
    CHECK_MPI(MPI_Psend_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]));
    CHECK_MPI(MPI_Precv_init(buf, 2, 2, MPI_INT, MPI_PROC_NULL, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]));
    for (int round = 0; round < 2; ++round) {
        CHECK_MPI(MPI_Startall(2, reqs));
        CHECK_MPI(MPI_Pready_range(0, 1, reqs[0]));
        CHECK_MPI(MPI_Waitall(2, reqs, st));
        CHECK(st[1].MPI_SOURCE == MPI_PROC_NULL, "a receive from MPI_PROC_NULL has source %d", st[1].MPI_SOURCE);
    }
    CHECK_MPI(MPI_Request_free(&reqs[0]));
    CHECK_MPI(MPI_Request_free(&reqs[1]));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    check_init_errors(size);

    int out[TOTAL], in[TOTAL];
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Psend_init(out, SEND_PARTS, SEND_COUNT, MPI_INT, next, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]));
    CHECK_MPI(MPI_Precv_init(in, RECV_PARTS, RECV_COUNT, MPI_INT, prev, TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]));
    /* Not started yet. */
    int flag = 0;
    CHECK_CLASS(MPI_Pready(0, reqs[0]), MPI_ERR_REQUEST);
    CHECK_MPI(MPI_Parrived(reqs[1], 0, &flag));
    CHECK(flag, "Parrived before MPI_Start answered false");
    CHECK_CLASS(MPI_Parrived(reqs[1], 0, NULL), MPI_ERR_ARG);
    for (int round = 0; round < 3; ++round) round_trip(round, rank, prev, reqs, out, in);
    CHECK_MPI(MPI_Request_free(&reqs[0]));
    CHECK_MPI(MPI_Request_free(&reqs[1]));

    check_apart(rank, next, prev);
    check_proc_null();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("partitioned: %d ranks, 3 rounds of %d partitions\n", size, SEND_PARTS);
    MPI_Finalize();
    return 0;
}
