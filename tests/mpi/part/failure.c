/* A partitioned request whose peer fails completes with
 * MPIX_ERR_PROC_FAILED, like any point-to-point request: the last rank
 * leaves without MPI_Finalize (exit status 0, so the launcher keeps the
 * job) while the others wait on partitioned receives from it and
 * partitioned sends to it (large: they need the receiver's answer): one
 * pair it never started (the send waits for its handshake), one pair that
 * completed a round with it first (matched: the second round's message
 * itself fails). MPI_T's ftmpi_failures_declared counter, started before,
 * counts the failure. */
#define CHECK_ENDS_RANK_ONLY
#include "support/check.h"

#include <mpi-ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PARTS = 4, COUNT = 1 << 18, MATCHED_TAG = 4 };

/* One round of a send and a receive between this rank and `peer` (rank
 * `peer`'s pair names this rank), each partition's bytes the sender's rank. */
static void good_round(MPI_Request pair[2], char *out, char *in, int rank, int peer) {
    memset(out, rank, PARTS * (size_t)COUNT);
    memset(in, -1, PARTS * (size_t)COUNT);
    CHECK_MPI(MPI_Startall(2, pair));
    CHECK_MPI(MPI_Pready_range(0, PARTS - 1, pair[0]));
    CHECK_MPI(MPI_Waitall(2, pair, MPI_STATUSES_IGNORE));
    for (size_t i = 0; i < PARTS * (size_t)COUNT; i += COUNT / 2)
        CHECK(in[i] == (char)peer, "in[%zu] = %d from rank %d", i, in[i], peer);
}

static void init_pair(MPI_Request pair[2], char *out, char *in, int peer) {
    CHECK_MPI(MPI_Psend_init(out, PARTS, COUNT, MPI_CHAR, peer, MATCHED_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &pair[0]));
    CHECK_MPI(MPI_Precv_init(in, PARTS, COUNT, MPI_CHAR, peer, MATCHED_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &pair[1]));
}

int main(int argc, char **argv) {
    int rank, size, provided;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int victim = size - 1;
    char *matched_out = calloc(PARTS * (size_t)COUNT, 1), *matched_in = calloc(PARTS * (size_t)COUNT, 1);
    MPI_Request matched[2];
    if (rank == victim) {
        /* One round with each survivor in turn, then leave. */
        for (int peer = 0; peer < victim; ++peer) {
            init_pair(matched, matched_out, matched_in, peer);
            good_round(matched, matched_out, matched_in, rank, peer);
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        _exit(0);
    }
    init_pair(matched, matched_out, matched_in, victim);
    good_round(matched, matched_out, matched_in, rank, victim); /* the victim serves one survivor at a time */

    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init_thread");
    MPI_T_pvar_session session;
    MPI_T_pvar_handle failures;
    int index = -1, count = 0;
    CHECK(MPI_T_pvar_get_index("ftmpi_failures_declared", MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_SUCCESS,
          "ftmpi_failures_declared");
    CHECK(MPI_T_pvar_session_create(&session) == MPI_SUCCESS, "pvar_session_create");
    CHECK(MPI_T_pvar_handle_alloc(session, index, NULL, &failures, &count) == MPI_SUCCESS, "pvar_handle_alloc");
    CHECK(MPI_T_pvar_start(session, failures) == MPI_SUCCESS, "pvar_start");

    char *out = calloc(PARTS * (size_t)COUNT, 1), *in = calloc(PARTS * (size_t)COUNT, 1);
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Psend_init(out, PARTS, COUNT, MPI_CHAR, victim, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]));
    CHECK_MPI(MPI_Precv_init(in, PARTS, COUNT, MPI_CHAR, victim, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]));
    CHECK_MPI(MPI_Startall(2, reqs));
    CHECK_MPI(MPI_Pready_range(0, PARTS - 1, reqs[0]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the victim leaves after it */

    MPI_Status st[2];
    const int e = MPI_Waitall(2, reqs, st);
    CHECK(e == MPI_ERR_IN_STATUS, "Waitall gave %d, expected MPI_ERR_IN_STATUS", e);
    for (int i = 0; i < 2; ++i)
        CHECK(error_class(st[i].MPI_ERROR) == MPIX_ERR_PROC_FAILED, "the partitioned %s ended with %s",
              i ? "receive" : "send", error_class_name(st[i].MPI_ERROR));
    /* The matched pair's next round fails the same way. */
    CHECK_MPI(MPI_Startall(2, matched));
    CHECK_MPI(MPI_Pready_range(0, PARTS - 1, matched[0]));
    CHECK(MPI_Waitall(2, matched, st) == MPI_ERR_IN_STATUS, "Waitall of the matched pair");
    for (int i = 0; i < 2; ++i)
        CHECK(error_class(st[i].MPI_ERROR) == MPIX_ERR_PROC_FAILED, "the matched partitioned %s ended with %s",
              i ? "receive" : "send", error_class_name(st[i].MPI_ERROR));
    /* The next round fails too, instead of blocking. */
    CHECK_MPI(MPI_Start(&reqs[1]));
    CHECK(error_class(MPI_Wait(&reqs[1], &st[1])) == MPIX_ERR_PROC_FAILED, "a new round from the failed rank");

    unsigned long long declared = 0;
    CHECK(MPI_T_pvar_read(session, failures, &declared) == MPI_SUCCESS, "pvar_read");
    CHECK(declared == 1, "ftmpi_failures_declared counted %llu failures", declared);
    CHECK(MPI_T_pvar_session_free(&session) == MPI_SUCCESS, "pvar_session_free");
    CHECK(MPI_T_finalize() == MPI_SUCCESS, "MPI_T_finalize");

    CHECK_MPI(MPI_Request_free(&reqs[0]));
    CHECK_MPI(MPI_Request_free(&reqs[1]));
    CHECK_MPI(MPI_Request_free(&matched[0]));
    CHECK_MPI(MPI_Request_free(&matched[1]));
    free(matched_out);
    free(matched_in);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
