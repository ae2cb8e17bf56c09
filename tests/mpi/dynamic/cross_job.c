/* Two jobs (cross_job.sh starts both, each with any number of ranks): the
 * server job opens a port and hands its name over, the client job connects,
 * and the two MPI_COMM_WORLDs get an intercommunicator on which everything
 * must work as within one job: point-to-point between every pair,
 * MPI_Bcast and MPI_Reduce both ways, MPI_Allreduce, MPI_Alltoall,
 * MPI_Allgather, MPI_Barrier, MPI_Comm_dup and MPI_Comm_split of the
 * intercommunicator, MPI_Intercomm_merge (server first) with an
 * Allreduce and a ring on the merged communicator, a merge with the same
 * `high` on both sides (both jobs must choose one order), and
 * MPI_Comm_disconnect; then a second connection on the same port.
 *
 * How the port name travels, by the third argument:
 *   file   the server's rank 0 writes it into DIR/port (atomically), the
 *          client's rank 0 reads it;
 *   names  MPI_Publish_name / MPI_Lookup_name (the jobs share a VM whose
 *          vm/drd holds the name).
 * With "file" the server's rank 0 also listens on TCP, the client's rank 0
 * connects, and both call MPI_Comm_join: one more intercommunicator, of the
 * two, between the jobs.
 * With "names" the client job first spawns a process (then connects, its
 * numbers for the server's processes following the spawned one's), and the
 * server's rank 0 spawns a process after the connection (the launcher
 * skips the numbers the server gave the client's processes).
 *   mpi_dynamic_cross_job server|client DIR file|names */
#include "support/check.h"

#include "exchange_files.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#define SERVICE "ftmpi-cross-job-test"

static int rank, size;

/* Both ends of a TCP connection between the two jobs' rank 0s join; the
 * intercommunicator of the two carries a message each way. */
static void join_across(int fd, int side) {
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_join(fd, &c));
    close(fd);
    int remote = 0, out = 700 + side, in = -1;
    CHECK_MPI(MPI_Comm_remote_size(c, &remote));
    CHECK(remote == 1, "join: remote size %d", remote);
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, 0, 2, &in, 1, MPI_INT, 0, 2, c, MPI_STATUS_IGNORE));
    CHECK(in == 701 - side, "join: got %d", in);
    CHECK_MPI(MPI_Comm_disconnect(&c));
}

/* Everything on the intercommunicator; `side` 0 for the server, 1 for the client. */
static void exercise(MPI_Comm inter, int side) {
    int remote = 0, flag = 0;
    CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag, "not an intercommunicator");
    CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
    CHECK(remote >= 1, "remote size %d", remote);

    /* Point-to-point between every pair. */
    int *got = calloc((size_t)remote, sizeof *got), *sent = calloc((size_t)remote, sizeof *sent);
    MPI_Request *reqs = calloc(2 * (size_t)remote, sizeof *reqs);
    for (int r = 0; r < remote; ++r) {
        sent[r] = side * 100000 + rank * 100 + r;
        CHECK_MPI(MPI_Irecv(&got[r], 1, MPI_INT, r, 7, inter, &reqs[r]));
        CHECK_MPI(MPI_Isend(&sent[r], 1, MPI_INT, r, 7, inter, &reqs[remote + r]));
    }
    CHECK_MPI(MPI_Waitall(2 * remote, reqs, MPI_STATUSES_IGNORE));
    for (int r = 0; r < remote; ++r)
        CHECK(got[r] == (1 - side) * 100000 + r * 100 + rank, "from remote %d: %d", r, got[r]);

    /* A large message (rendezvous) from each side's rank 0 to the other's rank 0. */
    enum { big = 1 << 20 };
    if (rank == 0) {
        char *out = malloc(big), *in = malloc(big);
        for (int i = 0; i < big; ++i) out[i] = (char)(i * 7 + side);
        CHECK_MPI(MPI_Sendrecv(out, big, MPI_CHAR, 0, 9, in, big, MPI_CHAR, 0, 9, inter, MPI_STATUS_IGNORE));
        for (int i = 0; i < big; ++i) CHECK(in[i] == (char)(i * 7 + 1 - side), "large message byte %d", i);
        free(out);
        free(in);
    }

    /* Broadcast from each side's rank 0. */
    for (int from = 0; from < 2; ++from) {
        int v = from == side ? 4200 + from : -1;
        int root = from == side ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        CHECK_MPI(MPI_Bcast(&v, 1, MPI_INT, root, inter));
        if (from != side) CHECK(v == 4200 + from, "broadcast from side %d: %d", from, v);
    }

    /* Allreduce: the remote group's sum. */
    int mine = rank + 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
    CHECK(sum == remote * (remote + 1) / 2, "allreduce %d, want %d", sum, remote * (remote + 1) / 2);

    /* Reduce to each side's rank 0 in turn, and Alltoall. */
    for (int to = 0; to < 2; ++to) {
        int root = to == side ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, out = 10 + rank, in = -1;
        CHECK_MPI(MPI_Reduce(&out, &in, 1, MPI_INT, MPI_MAX, root, inter));
        if (to == side && rank == 0) CHECK(in == 10 + remote - 1, "reduce to side %d: %d", to, in);
    }
    for (int r = 0; r < remote; ++r) sent[r] = side * 1000 + rank * 10 + r;
    CHECK_MPI(MPI_Alltoall(sent, 1, MPI_INT, got, 1, MPI_INT, inter));
    for (int r = 0; r < remote; ++r)
        CHECK(got[r] == (1 - side) * 1000 + r * 10 + rank, "alltoall from %d: %d", r, got[r]);

    /* Allgather: the remote group's values in its rank order. */
    int mark = side * 1000 + rank;
    CHECK_MPI(MPI_Allgather(&mark, 1, MPI_INT, got, 1, MPI_INT, inter));
    for (int r = 0; r < remote; ++r) CHECK(got[r] == (1 - side) * 1000 + r, "allgather[%d] = %d", r, got[r]);
    CHECK_MPI(MPI_Barrier(inter));

    /* A duplicate, and a split keeping each side's even ranks. */
    MPI_Comm dup, evens;
    CHECK_MPI(MPI_Comm_dup(inter, &dup));
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, dup));
    CHECK(sum == remote * (remote + 1) / 2, "allreduce on the duplicate: %d", sum);
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_split(inter, rank % 2 == 0 ? 0 : MPI_UNDEFINED, rank, &evens));
    if (rank % 2 == 0) {
        int rs = 0;
        CHECK_MPI(MPI_Comm_remote_size(evens, &rs));
        CHECK(rs == (remote + 1) / 2, "split: remote size %d", rs);
        CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, evens));
        CHECK(sum == rs * rs, "allreduce on the split: %d", sum); /* 1 + 3 + 5 + ... */
        CHECK_MPI(MPI_Comm_free(&evens));
    } else {
        CHECK(evens == MPI_COMM_NULL, "split: an odd rank got a communicator");
    }

    /* Merge, the server's ranks first. */
    MPI_Comm merged;
    int mrank, msize;
    CHECK_MPI(MPI_Intercomm_merge(inter, side, &merged));
    CHECK_MPI(MPI_Comm_rank(merged, &mrank));
    CHECK_MPI(MPI_Comm_size(merged, &msize));
    CHECK(msize == size + remote, "merged size %d", msize);
    CHECK(mrank == (side == 0 ? rank : remote + rank), "merged rank %d", mrank);
    int total = 0;
    CHECK_MPI(MPI_Allreduce(&mrank, &total, 1, MPI_INT, MPI_SUM, merged));
    CHECK(total == msize * (msize - 1) / 2, "merged allreduce %d", total);
    int left = -1;
    CHECK_MPI(MPI_Sendrecv(&mrank, 1, MPI_INT, (mrank + 1) % msize, 3, &left, 1, MPI_INT, (mrank + msize - 1) % msize,
                           3, merged, MPI_STATUS_IGNORE));
    CHECK(left == (mrank + msize - 1) % msize, "ring: %d", left);
    CHECK_MPI(MPI_Comm_free(&merged));

    /* Merge with the same `high` on both sides: the implementation picks
     * the order, and both jobs must pick the same one (each side's ranks
     * one block, in its rank order). */
    CHECK_MPI(MPI_Intercomm_merge(inter, 0, &merged));
    CHECK_MPI(MPI_Comm_rank(merged, &mrank));
    CHECK_MPI(MPI_Comm_size(merged, &msize));
    CHECK(msize == size + remote, "tied merge: size %d", msize);
    int *who = calloc((size_t)msize * 2, sizeof *who), me[2] = {side, rank};
    CHECK_MPI(MPI_Allgather(me, 2, MPI_INT, who, 2, MPI_INT, merged));
    const int first_side = who[0];
    for (int i = 0; i < msize; ++i) {
        const int block = i < (first_side == side ? size : remote) ? first_side : 1 - first_side;
        const int offset = block == first_side ? 0 : (first_side == side ? size : remote);
        CHECK(who[2 * i] == block && who[2 * i + 1] == i - offset, "tied merge: rank %d is side %d rank %d", i,
              who[2 * i], who[2 * i + 1]);
    }
    free(who);
    CHECK_MPI(MPI_Comm_free(&merged));

    CHECK_MPI(MPI_Comm_disconnect(&inter));
    CHECK(inter == MPI_COMM_NULL, "disconnect left a handle");
    free(got);
    free(sent);
    free(reqs);
}

/* A second connection on the same port after the first was disconnected:
 * the other job's processes get new numbers, the old ones are never reused. */
static void again(MPI_Comm inter, int side) {
    int remote = 0, mine = side * 100 + rank, sum = 0, want = 0;
    CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
    for (int r = 0; r < remote; ++r) want += (1 - side) * 100 + r;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
    CHECK(sum == want, "second connection: allreduce %d, want %d", sum, want);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
}

static void server(const char *program, const char *dir, int names) {
    char port[MPI_MAX_PORT_NAME] = "";
    int listener = -1;
    if (rank == 0) {
        CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        if (names) {
            CHECK_MPI(MPI_Publish_name(SERVICE, MPI_INFO_NULL, port));
            write_file(dir, "published", "yes");
        } else {
            listener = socket(AF_INET, SOCK_STREAM, 0);
            struct sockaddr_in a;
            memset(&a, 0, sizeof a);
            a.sin_family = AF_INET;
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            socklen_t len = sizeof a;
            CHECK(listener >= 0 && bind(listener, (struct sockaddr *)&a, sizeof a) == 0 && listen(listener, 1) == 0 &&
                      getsockname(listener, (struct sockaddr *)&a, &len) == 0,
                  "TCP listener");
            char text[MPI_MAX_PORT_NAME + 32];
            snprintf(text, sizeof text, "%d %s", ntohs(a.sin_port), port);
            write_file(dir, "port", text);
        }
    }
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    exercise(inter, 0);
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    again(inter, 0);
    if (rank == 0 && names) {
        /* This job (on a VM that can spawn) numbered the client's processes
         * after its own world ranks, where the launcher would put new
         * processes: it skips those numbers, and the spawn works. */
        char *child_argv[] = {"child", "talk", NULL};
        MPI_Comm children = MPI_COMM_NULL;
        int code = MPI_SUCCESS;
        CHECK_MPI(MPI_Comm_spawn(program, child_argv, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &children, &code));
        int one = 1, sum = 0;
        CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, children));
        CHECK(sum == 1, "allreduce with the spawned process: %d", sum);
        CHECK_MPI(MPI_Comm_disconnect(&children));
    }
    if (rank == 0) {
        if (names) CHECK_MPI(MPI_Unpublish_name(SERVICE, MPI_INFO_NULL, port));
        if (listener >= 0) {
            int fd = accept(listener, NULL, NULL);
            CHECK(fd >= 0, "accept");
            close(listener);
            join_across(fd, 0);
        }
        CHECK_MPI(MPI_Close_port(port));
    }
}

static void client(const char *program, const char *dir, int names) {
    char port[MPI_MAX_PORT_NAME] = "";
    int tcp = 0;
    if (names) {
        /* Spawn first (this job runs on a VM that can), connect afterwards:
         * the server's processes get numbers after the spawned one's world
         * rank, which this job's processes all know. */
        char *child_argv[] = {"child", NULL};
        MPI_Comm children;
        int code = MPI_SUCCESS;
        CHECK_MPI(MPI_Comm_spawn(program, child_argv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, &code));
        CHECK_MPI(MPI_Comm_disconnect(&children));
    }
    if (rank == 0) {
        if (names) {
            char yes[8];
            read_file(dir, "published", yes, sizeof yes);
            CHECK_MPI(MPI_Lookup_name(SERVICE, MPI_INFO_NULL, port));
        } else {
            char text[MPI_MAX_PORT_NAME + 32];
            read_file(dir, "port", text, sizeof text);
            CHECK(sscanf(text, "%d %1023s", &tcp, port) == 2, "malformed port file: %s", text);
        }
    }
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    exercise(inter, 1);
    CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter));
    again(inter, 1);
    if (rank == 0 && tcp > 0) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons((unsigned short)tcp);
        CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect to 127.0.0.1:%d", tcp);
        join_across(fd, 1);
    }
}

int main(int argc, char **argv) {
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    if (argc >= 2 && strcmp(argv[1], "child") == 0) { /* a spawned process ("talk": the server's) */
        MPI_Comm parent;
        CHECK_MPI(MPI_Comm_get_parent(&parent));
        CHECK(parent != MPI_COMM_NULL, "a spawned process without parents");
        if (argc == 3 && strcmp(argv[2], "talk") == 0) {
            int one = 1, sum = 0;
            CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, parent));
            CHECK(sum == 1, "allreduce with the parent: %d", sum);
        }
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    CHECK(argc == 4, "usage: %s server|client DIR file|names", argv[0]);
    const int names = strcmp(argv[3], "names") == 0;
    const int is_server = strcmp(argv[1], "server") == 0;
    if (is_server)
        server(argv[0], argv[2], names);
    else
        client(argv[0], argv[2], names);
    if (rank == 0) printf("cross_job %s: ok (%d ranks)\n", argv[1], size);
    MPI_Finalize();
    return 0;
}
