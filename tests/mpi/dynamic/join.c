/* MPI_Comm_join: rank 0 listens on 127.0.0.1, sends its TCP port to rank 1
 * with MPI_Send, rank 1 connects; both join twice over the socket and send
 * messages over the intercommunicators. Every rank also checks that a join
 * whose other end is no FT-MPI process, or is closed, ends with an error and
 * MPI_COMM_NULL instead of hanging. */
#include "support/check.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

static int connected_socket(int rank) {
    int fd = -1;
    if (rank == 0) {
        int listener = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(listener >= 0, "socket");
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = 0;
        CHECK(bind(listener, (struct sockaddr *)&a, sizeof a) == 0, "bind");
        CHECK(listen(listener, 1) == 0, "listen");
        socklen_t len = sizeof a;
        CHECK(getsockname(listener, (struct sockaddr *)&a, &len) == 0, "getsockname");
        int port = ntohs(a.sin_port);
        CHECK_MPI(MPI_Send(&port, 1, MPI_INT, 1, 1, MPI_COMM_WORLD));
        fd = accept(listener, NULL, NULL);
        CHECK(fd >= 0, "accept");
        close(listener);
    } else {
        int port = 0;
        CHECK_MPI(MPI_Recv(&port, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        fd = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(fd >= 0, "socket");
        struct sockaddr_in a;
        memset(&a, 0, sizeof a);
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons((unsigned short)port);
        CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect to 127.0.0.1:%d", port);
    }
    return fd;
}

static void bad_ends(void) {
    MPI_Comm c = MPI_COMM_WORLD;
    int sv[2];
    /* Garbage from the other end. */
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
    char junk[256];
    memset(junk, 'x', sizeof junk);
    CHECK(write(sv[1], junk, sizeof junk) == (ssize_t)sizeof junk, "write");
    CHECK(MPI_Comm_join(sv[0], &c) != MPI_SUCCESS, "a join with garbage succeeded");
    CHECK(c == MPI_COMM_NULL, "a failed join left a communicator");
    close(sv[0]);
    close(sv[1]);
    /* The other end closed. */
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
    close(sv[1]);
    c = MPI_COMM_WORLD;
    CHECK(MPI_Comm_join(sv[0], &c) != MPI_SUCCESS, "a join with a closed end succeeded");
    CHECK(c == MPI_COMM_NULL, "a failed join left a communicator");
    close(sv[0]);
    CHECK_CLASS(MPI_Comm_join(-1, &c), MPI_ERR_ARG);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bad_ends();

    if (rank < 2 && size >= 2) {
        int fd = connected_socket(rank);
        for (int round = 0; round < 2; ++round) {
            MPI_Comm inter;
            CHECK_MPI(MPI_Comm_join(fd, &inter));
            int flag = 0, remote_size = 0;
            CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
            CHECK_MPI(MPI_Comm_remote_size(inter, &remote_size));
            CHECK(flag == 1 && remote_size == 1, "join gave inter %d, remote size %d", flag, remote_size);
            int mine = 100 * round + rank, theirs = -1;
            CHECK_MPI(MPI_Sendrecv(&mine, 1, MPI_INT, 0, 3, &theirs, 1, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE));
            CHECK(theirs == 100 * round + (1 - rank), "round %d: got %d", round, theirs);
            MPI_Comm merged;
            CHECK_MPI(MPI_Intercomm_merge(inter, rank, &merged));
            int sum = -1;
            CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged));
            CHECK(sum == 1, "allreduce over the merged join gave %d", sum);
            CHECK_MPI(MPI_Comm_free(&merged));
            CHECK_MPI(MPI_Comm_free(&inter));
        }
        close(fd);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("dynamic join: ok (%d ranks)\n", size);
    MPI_Finalize();
    return 0;
}
