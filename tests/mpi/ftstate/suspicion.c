/* A suspicion that the VM never confirms: the last rank
 * shuts its TCP connections down (FIN without bye) and stops itself with
 * SIGSTOP — alive, so no proc_exit event comes. The survivors' notifiers
 * wait FTMPI_CONFIRM_MS for a confirmation, then declare it failed
 * ("connection lost (unconfirmed)") and publish a fence, on which ftmpirun
 * SIGKILLs the stopped process. With --ordered-notifier the survivors only
 * publish the fence and apply it when it comes back through the topic.
 *
 * Checks at the survivors: the receive from the suspect ends with
 * MPIX_ERR_PROC_FAILED, not before the confirmation deadline (the first
 * FTMPI_CONFIRM_MS the process is only UNAVAILABLE), and the reason says
 * it was not confirmed. Prints the time to the error. */
#include "check.h"

#include <dirent.h>
#include <sys/socket.h>
#include <sys/stat.h>

/* Every TCP socket of this process: shut down (the peers read EOF). */
static void shut_tcp_sockets(void) {
    DIR *d = opendir("/proc/self/fd");
    CHECK(d != NULL, "cannot list /proc/self/fd");
    struct dirent *e;
    int fds[1024], n = 0;
    while ((e = readdir(d)) != NULL && n < 1024) {
        int fd = atoi(e->d_name);
        if (fd > 2 && fd != dirfd(d)) fds[n++] = fd;
    }
    closedir(d);
    for (int i = 0; i < n; ++i) {
        struct stat st;
        int domain = 0, type = 0;
        socklen_t len = sizeof domain;
        if (fstat(fds[i], &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
        if (getsockopt(fds[i], SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0) continue;
        len = sizeof type;
        if (getsockopt(fds[i], SOL_SOCKET, SO_TYPE, &type, &len) != 0) continue;
        if ((domain == AF_INET || domain == AF_INET6) && type == SOCK_STREAM) shutdown(fds[i], SHUT_RDWR);
    }
}

int main(int argc, char **argv) {
    const int size = ftstate_init(&argc, &argv, 3);
    const char *confirm = getenv("FTMPI_CONFIRM_MS");
    const double confirm_s = (confirm ? atof(confirm) : 3000.0) / 1e3;
    const int suspect = size - 1;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    if (check_rank_ == suspect) {
        for (int r = 0; r < suspect; ++r) {
            double t = MPI_Wtime();
            CHECK_MPI(MPI_Send(&t, 1, MPI_DOUBLE, r, 1, MPI_COMM_WORLD));
        }
        fflush(stdout);
        shut_tcp_sockets();
        raise(SIGSTOP);
        _exit(0); /* only if someone continued it */
    }

    double cut_at = 0;
    CHECK_MPI(MPI_Recv(&cut_at, 1, MPI_DOUBLE, suspect, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int dummy = 0;
    CHECK_CLASS(MPI_Recv(&dummy, 1, MPI_INT, suspect, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    const double waited = MPI_Wtime() - cut_at;
    printf("rank %d: connection cut -> MPIX_ERR_PROC_FAILED after %.0f ms (FTMPI_CONFIRM_MS %.0f)\n", check_rank_,
           waited * 1e3, confirm_s * 1e3);
    CHECK(waited >= confirm_s * 0.95, "declared after %.0f ms, before the confirmation deadline", waited * 1e3);

    char *text = NULL;
    int flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, FT_MPI_ERROR_STRING, &text, &flag));
    CHECK(flag && text && strstr(text, "connection lost (unconfirmed)") != NULL, "FT_MPI_ERROR_STRING '%s'",
          text ? text : "(null)");
    int state = -1;
    CHECK_MPI(FTMPI_Comm_get_proc_state(MPI_COMM_WORLD, suspect, &state));
    CHECK(state == FTMPI_PROC_FAILED, "proc state of the suspect %d", state);
    if (check_rank_ == 0) printf("suspicion: OK: %s\n", text);
    MPI_Finalize();
    return 0;
}
