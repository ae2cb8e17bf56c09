/* Port names and the errors of accept/connect: MPI_Open_port gives distinct
 * names; closing twice, accepting on a closed port, connecting to text that
 * is no port name, to a port of another job or to one's own port end with
 * MPI_ERR_PORT; bad arguments with their classes. With 2 or more ranks,
 * rank 1 connects to a port rank 0 closed, and to one it never opened: its
 * listener refuses both (MPI_ERR_PORT, no hang). */
#include "support/check.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    char ports[3][MPI_MAX_PORT_NAME];
    for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, ports[i]));
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j) CHECK(strcmp(ports[i], ports[j]) != 0, "two ports named %s", ports[i]);

    MPI_Comm c = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Close_port(ports[1]));
    CHECK_CLASS(MPI_Close_port(ports[1]), MPI_ERR_PORT);
    CHECK_CLASS(MPI_Close_port("no port at all"), MPI_ERR_PORT);
    CHECK_CLASS(MPI_Comm_accept(ports[1], MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK(c == MPI_COMM_NULL, "a failed accept left a communicator");
    CHECK_CLASS(MPI_Comm_connect("no port at all", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK_CLASS(MPI_Comm_connect("ftmpi-port:some-other-job:0:0", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
    CHECK(c == MPI_COMM_NULL, "a failed connect left a communicator");

    /* A process cannot connect to its own port. */
    CHECK_CLASS(MPI_Comm_connect(ports[0], MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);

    /* Arguments. */
    CHECK_CLASS(MPI_Comm_accept(NULL, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_connect(NULL, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_accept(ports[0], MPI_INFO_NULL, 1, MPI_COMM_SELF, &c), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Comm_accept(ports[0], MPI_INFO_NULL, 0, MPI_COMM_SELF, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_connect(ports[0], MPI_INFO_NULL, 0, MPI_COMM_NULL, &c), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Open_port(MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Close_port(NULL), MPI_ERR_ARG);
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_MPI(MPI_Error_string(MPI_ERR_PORT, text, &len));
    CHECK(len > 0 && strstr(text, "port") != NULL, "MPI_ERR_PORT's string \"%s\"", text);

    if (size >= 2) {
        /* A port that was open and is closed: its process refuses the connection. */
        char closed[MPI_MAX_PORT_NAME];
        if (rank == 0) {
            CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, closed));
            CHECK_MPI(MPI_Close_port(closed));
            CHECK_MPI(MPI_Send(closed, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 1, MPI_COMM_WORLD));
        } else if (rank == 1) {
            CHECK_MPI(MPI_Recv(closed, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_CLASS(MPI_Comm_connect(closed, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
            /* A port number rank 0 never opened. */
            char never[MPI_MAX_PORT_NAME];
            snprintf(never, sizeof never, "%.*s:999999", (int)(strrchr(closed, ':') - closed), closed);
            CHECK_CLASS(MPI_Comm_connect(never, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
        }
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }

    CHECK_MPI(MPI_Close_port(ports[0]));
    CHECK_MPI(MPI_Close_port(ports[2]));
    if (rank == 0) printf("dynamic ports: ok (%d ranks)\n", size);
    MPI_Finalize();
    return 0;
}
