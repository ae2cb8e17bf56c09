/* Two jobs (cross_job.sh starts both): the server opens a port and a TCP
 * listener on 127.0.0.1 and writes both into DIR/contact; the client
 * connects to the port (MPI_ERR_PORT: another job's) and to the TCP
 * listener, and both call MPI_Comm_join over that socket (an error and
 * MPI_COMM_NULL on both sides: processes of two jobs cannot reach each
 * other). Nobody may hang or crash.
 *   mpi_dynamic_cross_job server|client DIR */
#include "support/check.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

static void join_must_fail(int fd) {
    MPI_Comm c = MPI_COMM_WORLD;
    CHECK(MPI_Comm_join(fd, &c) != MPI_SUCCESS, "MPI_Comm_join across jobs succeeded");
    CHECK(c == MPI_COMM_NULL, "a failed join left a communicator");
    close(fd);
}

static void server(const char *dir) {
    char port[MPI_MAX_PORT_NAME], path[512], tmp[512];
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    CHECK(listener >= 0 && bind(listener, (struct sockaddr *)&a, sizeof a) == 0 && listen(listener, 1) == 0 &&
              getsockname(listener, (struct sockaddr *)&a, &len) == 0,
          "TCP listener");
    snprintf(tmp, sizeof tmp, "%s/contact.tmp", dir);
    snprintf(path, sizeof path, "%s/contact", dir);
    FILE *f = fopen(tmp, "w");
    CHECK(f != NULL, "cannot write %s", tmp);
    fprintf(f, "%s\n%d\n", port, ntohs(a.sin_port));
    fclose(f);
    CHECK(rename(tmp, path) == 0, "rename to %s", path);
    int fd = accept(listener, NULL, NULL);
    CHECK(fd >= 0, "accept");
    close(listener);
    join_must_fail(fd);
    CHECK_MPI(MPI_Close_port(port));
    printf("cross_job server: ok\n");
}

static void client(const char *dir) {
    char port[MPI_MAX_PORT_NAME], path[512];
    int tcp = 0;
    snprintf(path, sizeof path, "%s/contact", dir);
    FILE *f = NULL;
    for (int i = 0; i < 3000 && (f = fopen(path, "r")) == NULL; ++i) usleep(10 * 1000);
    CHECK(f != NULL, "no %s after 30 s", path);
    CHECK(fscanf(f, "%1023s %d", port, &tcp) == 2, "malformed %s", path);
    fclose(f);
    MPI_Comm c = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK(c == MPI_COMM_NULL, "a failed connect left a communicator");
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((unsigned short)tcp);
    CHECK(fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "connect to 127.0.0.1:%d", tcp);
    join_must_fail(fd);
    printf("cross_job client: ok\n");
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK(argc == 3, "usage: %s server|client DIR", argv[0]);
    if (strcmp(argv[1], "server") == 0)
        server(argv[2]);
    else
        client(argv[2]);
    MPI_Finalize();
    return 0;
}
