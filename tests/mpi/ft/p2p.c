/* A rank killed (SIGKILL) while its partner is in a
 * point-to-point operation with it: the partner gets MPIX_ERR_PROC_FAILED —
 * from a blocking call at once, from a non-blocking one only at completion
 * (initiation succeeds) — later operations with the dead rank fail without
 * blocking, and pairs that do not involve it complete normally with the
 * right data, during the failure and after it.
 *
 * Rank 1 is the victim, rank 0 its partner; ranks 2.. exchange in pairs
 * (2,3), (4,5) … all along. FT_KILL_AT says what rank 0 is doing:
 *   recv        blocking receive, eager size
 *   recv_rndv   blocking receive of a rendezvous message the victim started
 *               (whole, or MPIX_ERR_PROC_FAILED: the victim may finish it)
 *   send_rndv   blocking rendezvous send; the victim never posts the receive
 *   irecv       non-blocking receive, MPI_Wait
 *   isend_rndv  non-blocking rendezvous send, MPI_Wait
 *   peer_kill   blocking receive while rank 2 kills the victim with kill(2)
 * Needs an even number of ranks, at least 4. */
#include "inject.h"

enum { SMALL = 1024, BIG = 1 << 20, ROUNDS = 60 };
enum { TAG_GO = 1, TAG_OP = 2, TAG_KILL = 3, TAG_PAIR = 4, TAG_RING = 5, TAG_NEVER = 6, TAG_READY = 7 };

static void fill(char *buf, int n, int from, int round) {
    for (int i = 0; i < n; ++i) buf[i] = (char)(from * 31 + round * 7 + i);
}

static void expect(const char *buf, int n, int from, int round) {
    for (int i = 0; i < n; i += 4093)
        CHECK(buf[i] == (char)(from * 31 + round * 7 + i), "message from %d round %d: byte %d wrong", from, round, i);
}

/* Ranks 2..: exchange blocking and non-blocking, eager and rendezvous, with
 * the partner (rank ^ 1), checking every message. */
static void pair_traffic(int rank, char *out, char *in) {
    int peer = rank ^ 1;
    for (int r = 0; r < ROUNDS; ++r) {
        int n = (r % 3 == 0) ? BIG : SMALL;
        fill(out, n, rank, r);
        if (r % 2 == 0) {
            CHECK_MPI(MPI_Sendrecv(out, n, MPI_CHAR, peer, TAG_PAIR, in, n, MPI_CHAR, peer, TAG_PAIR, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
        } else {
            MPI_Request q[2];
            CHECK_MPI(MPI_Irecv(in, n, MPI_CHAR, peer, TAG_PAIR, MPI_COMM_WORLD, &q[0]));
            CHECK_MPI(MPI_Isend(out, n, MPI_CHAR, peer, TAG_PAIR, MPI_COMM_WORLD, &q[1]));
            CHECK_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
        }
        expect(in, n, peer, r);
    }
}

static void victim(const char *at, char *out) {
    int go = 0;
    if (strcmp(at, "peer_kill") == 0) {
        /* Every rank has left the synchronization (it waited for all of
         * them): the kill may come now. Then blocks until rank 2 kills us. */
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 0, TAG_READY, MPI_COMM_WORLD));
        MPI_Recv(&go, 1, MPI_INT, 0, TAG_NEVER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(0, "the victim's receive returned; rank 2 should have killed it");
    }
    CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (strcmp(at, "recv_rndv") == 0) {
        MPI_Request q;
        fill(out, BIG, 1, 0);
        CHECK_MPI(MPI_Isend(out, BIG, MPI_CHAR, 0, TAG_OP, MPI_COMM_WORLD, &q));
    }
    ft_kill_self_at(at);
    CHECK(0, "FT_KILL_RANK=1 FT_KILL_AT=%s expected", at);
}

/* Rank 0: the operation the victim dies during, then new operations. */
static void partner(const char *at, char *out, char *in, const int *pids) {
    int go = 1;
    (void)pids;
    if (strcmp(at, "peer_kill") == 0) {
        /* Only once the victim is past the synchronization: killed inside
         * it, a rank still in its barrier would see the failure. */
        CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 1, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 2, TAG_KILL, MPI_COMM_WORLD));
    } else
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD));

    double t0 = ft_now();
    MPI_Request q;
    if (strcmp(at, "recv") == 0 || strcmp(at, "peer_kill") == 0) {
        CHECK_CLASS(MPI_Recv(in, SMALL, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    } else if (strcmp(at, "recv_rndv") == 0) {
        /* The victim's progress thread may finish the transfer before the
         * signal lands: then the message must be whole. */
        int rc = MPI_Recv(in, BIG, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS || error_class(rc) == MPIX_ERR_PROC_FAILED, "receive gave %s", error_class_name(rc));
        if (rc == MPI_SUCCESS) {
            expect(in, BIG, 1, 0);
            printf("rank 0: the rendezvous message arrived whole before the victim died\n");
        }
    } else if (strcmp(at, "send_rndv") == 0) {
        CHECK_CLASS(MPI_Send(out, BIG, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD), MPIX_ERR_PROC_FAILED);
    } else if (strcmp(at, "irecv") == 0) {
        CHECK_MPI(MPI_Irecv(in, SMALL, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD, &q));
        CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    } else if (strcmp(at, "isend_rndv") == 0) {
        CHECK_MPI(MPI_Isend(out, BIG, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD, &q));
        CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    } else {
        CHECK(0, "unknown FT_KILL_AT=%s", at);
    }
    printf("rank 0: %s with the victim failed after %.1f ms\n", at, (ft_now() - t0) * 1e3);

    /* The failure is known now: operations naming the dead rank fail
     * without blocking; non-blocking ones still start successfully. */
    CHECK_CLASS(MPI_Recv(in, SMALL, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    CHECK_CLASS(MPI_Send(out, BIG, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD), MPIX_ERR_PROC_FAILED);
    CHECK_MPI(MPI_Irecv(in, SMALL, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD, &q));
    CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    CHECK_MPI(MPI_Isend(out, BIG, MPI_CHAR, 1, TAG_OP, MPI_COMM_WORLD, &q));
    CHECK_CLASS(MPI_Wait(&q, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
}

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    const char *at = getenv("FT_KILL_AT");
    CHECK(size >= 4 && size % 2 == 0, "needs an even number of ranks >= 4, got %d", size);
    CHECK(at && ft_kill_rank() == 1, "set FT_KILL_RANK=1 and FT_KILL_AT");
    int pids[64];
    CHECK(size <= 64, "at most 64 ranks");
    ft_exchange_pids(MPI_COMM_WORLD, pids);
    /* The victim goes on only once every rank has left the exchange: a
     * failure notice is applied ahead of frames still unread, so what the
     * victim sent just before dying may never be delivered. */
    ft_sync_before_kill(MPI_COMM_WORLD, 1);
    char *out = malloc(BIG), *in = malloc(BIG);
    CHECK(out && in, "out of memory");

    if (rank == 1) victim(at, out);
    if (rank == 0) partner(at, out, in, pids);
    if (rank >= 2) {
        if (rank == 2 && strcmp(at, "peer_kill") == 0) {
            int go = 0;
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, TAG_KILL, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            printf("rank 2: killing rank 1 (pid %d)\n", pids[1]);
            ft_kill_pid(pids[1]);
        }
        pair_traffic(rank, out, in);
    }

    /* Survivors (0, 2, 3, …) still talk: a ring that skips the dead rank. */
    int live[64], n = 0, me = -1;
    for (int r = 0; r < size; ++r)
        if (r != 1) {
            if (r == rank) me = n;
            live[n++] = r;
        }
    int next = live[(me + 1) % n], prev = live[(me + n - 1) % n];
    fill(out, BIG, rank, 99);
    CHECK_MPI(MPI_Sendrecv(out, BIG, MPI_CHAR, next, TAG_RING, in, BIG, MPI_CHAR, prev, TAG_RING, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    expect(in, BIG, prev, 99);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
