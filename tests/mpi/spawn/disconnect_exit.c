/* After MPI_Comm_disconnect the two sides are no longer connected: a child
 * that finalizes exits while its parent goes on (MPI_Finalize waits only for
 * processes it still shares a communicator with). The child sends its pid
 * before disconnecting; the parent waits, with a deadline, until that
 * process is gone (same host: the test's one daemon started it). */
#include "spawn_support.h"

#include <errno.h>
#include <signal.h>
#include <time.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int pid = (int)getpid();
        CHECK_MPI(MPI_Send(&pid, 1, MPI_INT, 0, 1, parent));
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    MPI_Comm inter;
    CHECK_MPI(spawn_self(MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE));
    int pid = 0;
    if (rank == 0) CHECK_MPI(MPI_Recv(&pid, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    if (rank == 0) {
        const time_t deadline = time(NULL) + 20;
        while (kill((pid_t)pid, 0) == 0 && time(NULL) < deadline) usleep(10000);
        CHECK(kill((pid_t)pid, 0) != 0 && errno == ESRCH, "the disconnected child (pid %d) still runs after 20 s", pid);
        printf("a disconnected child ended while its parent runs: ok\n");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
