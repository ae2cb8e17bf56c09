/* Strangers at a rank's door must not disturb the job.
 *
 * Rank 1 reads rank 0's contact record (dir: wire-up) and opens raw TCP
 * connections to rank 0's listening port, which stays open after the mesh
 * for REBUILD replacements: garbage, a frame without the hello magic, hellos
 * naming a rank outside the job, another destination, a stale incarnation,
 * a spawned process's hello for a rank in use or beyond the limit on world
 * ranks, a half hello left open, a connect-and-close, and one valid joining hello
 * (a would-be replacement of rank 2, incarnation 1), which must be answered
 * with a hello-ack and then held unread. Every bad one must be closed by
 * rank 0 (read() returns 0 before a deadline); afterwards every rank checks
 * that messages and collectives still work. The script around it checks
 * rank 0's refusal lines on stderr. */
#include <mpi.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "stray_connections: rank %d: ", rank);                                                     \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__);                                                         \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                              \
        }                                                                                                              \
    } while (0)

static int rank;

/* The 48-byte frame header of ftmpi/src/transport/frame.hpp, by offset. */
struct hello {
    uint8_t kind, flags;
    uint16_t reserved;
    uint32_t context;
    int32_t tag, source;
    uint64_t length, sender_id, receiver_id, pad;
};
#define HELLO_MAGIC 0x46544d5049484c4full

static struct hello make_hello(int source, int incarnation, int to, int to_incarnation) {
    struct hello h;
    memset(&h, 0, sizeof h);
    h.kind = 1;
    h.source = source;
    h.tag = incarnation;
    h.context = 1;
    h.length = (uint64_t)to;
    h.receiver_id = (uint64_t)to_incarnation;
    h.sender_id = HELLO_MAGIC;
    return h;
}

static struct sockaddr_in rank0_address(void) {
    const char *wireup = getenv("FTMPI_WIREUP");
    CHECK(wireup && strncmp(wireup, "dir:", 4) == 0, "needs the dir: wire-up (FTMPI_WIREUP=%s)", wireup ? wireup : "");
    char path[4096];
    snprintf(path, sizeof path, "%s/0", wireup + 4);
    FILE *f = fopen(path, "r");
    CHECK(f, "cannot read %s", path);
    /* The record is rank 0's card: "tcp=HOST:PORT[ INC ROUND][;other=...]". */
    char card[1024] = "", host[256] = "";
    int port = 0;
    CHECK(fgets(card, sizeof card, f) != NULL, "empty record in %s", path);
    fclose(f);
    const char *tcp = strstr(card, "tcp=");
    CHECK(tcp && sscanf(tcp + 4, "%255[^:]:%d", host, &port) == 2, "bad record in %s: %s", path, card);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    CHECK(inet_pton(AF_INET, host, &sa.sin_addr) == 1, "bad host %s", host);
    return sa;
}

static int dial(const struct sockaddr_in *sa) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(fd >= 0 && connect(fd, (const struct sockaddr *)sa, sizeof *sa) == 0, "cannot connect to rank 0: %s",
          strerror(errno));
    return fd;
}

static void send_all(int fd, const void *p, size_t n) {
    CHECK(send(fd, p, n, MSG_NOSIGNAL) == (ssize_t)n, "short send");
}

/* Reads until EOF or `want` bytes; returns bytes read, -1 on the deadline. */
static int read_until(int fd, void *buf, size_t want, int deadline_ms) {
    size_t got = 0;
    char scratch[256];
    while (1) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, deadline_ms) <= 0) return -1;
        char *dst = buf && got < want ? (char *)buf + got : scratch;
        size_t room = buf && got < want ? want - got : sizeof scratch;
        ssize_t n = recv(fd, dst, room, 0);
        if (n <= 0) return (int)got;
        got += (size_t)n;
        if (buf && got >= want) return (int)got;
    }
}

static void expect_closed(int fd, const char *what) {
    int n = read_until(fd, NULL, 0, 10000);
    CHECK(n == 0, "rank 0 did not close the connection that sent %s (read %d)", what, n);
    close(fd);
    printf("stray_connections: refused: %s\n", what);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 3, "run with 3 ranks");
    int joining = -1, half = -1;
    if (rank == 1) {
        struct sockaddr_in sa = rank0_address();
        int fd = dial(&sa);
        char garbage[100];
        for (int i = 0; i < 100; ++i) garbage[i] = (char)(i * 37 + 11);
        send_all(fd, garbage, sizeof garbage);
        expect_closed(fd, "100 bytes of garbage");

        struct hello h = make_hello(2, 1, 0, 0);
        h.sender_id = 0x1234;
        fd = dial(&sa);
        send_all(fd, &h, sizeof h);
        expect_closed(fd, "a frame without the hello magic");

        h = make_hello(5, 1, 0, 0);
        fd = dial(&sa);
        send_all(fd, &h, sizeof h);
        expect_closed(fd, "a hello from rank 5 of a 3-rank job");

        h = make_hello(2, 1, 7, 0);
        fd = dial(&sa);
        send_all(fd, &h, sizeof h);
        expect_closed(fd, "a hello meant for rank 7");

        h = make_hello(2, 1, 0, 3);
        fd = dial(&sa);
        send_all(fd, &h, sizeof h);
        expect_closed(fd, "a hello meant for incarnation 3 of rank 0");

        h = make_hello(2, 0, 0, 0);
        fd = dial(&sa);
        send_all(fd, &h, sizeof h);
        expect_closed(fd, "a hello from the current incarnation (0) of rank 2");

        h = make_hello(0, 1, 0, 0);
        fd = dial(&sa);
        send_all(fd, &h, sizeof h);
        expect_closed(fd, "a hello claiming to be rank 0 itself");

        /* Hellos of processes MPI_Comm_spawn would add (flag 8): never for
         * a world rank in use, nor beyond the limit on world ranks. */
        h = make_hello(2, 0, 0, 0);
        h.flags = 8;
        fd = dial(&sa);
        send_all(fd, &h, sizeof h);
        expect_closed(fd, "a spawned process's hello for rank 2, in use");

        h = make_hello(1 << 20, 0, 0, 0);
        h.flags = 8;
        fd = dial(&sa);
        send_all(fd, &h, sizeof h);
        expect_closed(fd, "a spawned process's hello for world rank 2^20");

        fd = dial(&sa);
        close(fd);
        printf("stray_connections: connected and closed at once\n");

        half = dial(&sa);
        h = make_hello(2, 1, 0, 0);
        send_all(half, &h, 20); /* left open: rank 0 drops it after 5 s */

        joining = dial(&sa);
        send_all(joining, &h, sizeof h);
        struct hello ack;
        int n = read_until(joining, &ack, sizeof ack, 10000);
        CHECK(n == (int)sizeof ack, "no hello-ack for a valid joining hello (read %d)", n);
        CHECK(ack.kind == 1 && (ack.flags & 2) && ack.sender_id == HELLO_MAGIC && ack.source == 0 && ack.length == 2,
              "bad hello-ack (kind %d flags %d source %d to %d)", ack.kind, ack.flags, ack.source, (int)ack.length);
        /* Frames after the hello stay unread until the joiner is admitted. */
        send_all(joining, garbage, sizeof garbage);
        printf("stray_connections: joining hello answered (rank 0 holds it unread)\n");
    }
    /* The job goes on: a ring of messages and collectives. */
    for (int round = 0; round < 50; ++round) {
        int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1, value = rank * 1000 + round;
        CHECK(MPI_Sendrecv(&value, 1, MPI_INT, right, round, &got, 1, MPI_INT, left, round, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE) == MPI_SUCCESS,
              "sendrecv failed");
        CHECK(got == left * 1000 + round, "ring got %d, expected %d", got, left * 1000 + round);
        int sum = 0;
        CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "allreduce failed");
        CHECK(sum == 3, "allreduce gave %d", sum);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        close(half);
        close(joining);
    }
    if (rank == 0) printf("stray_connections: the job was not disturbed\n");
    MPI_Finalize();
    return 0;
}
