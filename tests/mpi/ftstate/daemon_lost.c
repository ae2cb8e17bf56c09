/* A rank whose own daemon stops answering leaves the job:
 * rank 0 freezes the job's daemon (the ranks' parent) with SIGSTOP; its
 * connections stay open, so it counts as hung, not gone: every rank's
 * notifier gets no answer for FTMPI_DAEMON_HUNG_MS and the process exits
 * with status 1 and one line on stderr (ftmpi/src/runtime/daemon_watch.hpp).
 * A helper process (not an MPI rank) resumes the daemon 6 s later so the
 * launcher can collect the ends. A rank still running 10 s later prints
 * "STILL RUNNING" (the driver fails on that line). */
#include "check.h"

#include <sys/types.h>
#include <time.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);
    CHECK(getenv("FTMPI_DAEMON_HUNG_MS") != NULL, "FTMPI_DAEMON_HUNG_MS not set");
    const pid_t daemon = getppid();
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (check_rank_ == 0) {
        pid_t helper = fork();
        CHECK(helper >= 0, "fork failed");
        if (helper == 0) {
            setsid(); /* out of the rank's process group */
            sleep(6);
            kill(daemon, SIGCONT);
            _exit(0);
        }
        printf("rank 0: stopping the daemon (pid %d)\n", (int)daemon);
        fflush(stdout);
        CHECK(kill(daemon, SIGSTOP) == 0, "cannot stop the daemon");
    }
    const double start = MPI_Wtime();
    while (MPI_Wtime() - start < 10.0) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    printf("rank %d: STILL RUNNING 10 s after its daemon stopped\n", check_rank_);
    fflush(stdout);
    _exit(0);
}
