/* Detection latency of a process failure, and the
 * recovery that follows, in one job (a job measures one kill; run.sh runs
 * it several times for the median and spread):
 *
 *   detect_rank   rank 0 kills the last rank with kill(pid, SIGKILL) while
 *                 every other rank waits in a receive from it; the time from
 *                 the kill to the moment that receive returns
 *                 MPIX_ERR_PROC_FAILED, at the slowest survivor (and the
 *                 fastest, on the line starting with #)
 *   shrink_after  then MPIX_Comm_shrink over the survivors: time
 *                 from the first survivor entering to the last leaving
 *
 * One host: CLOCK_MONOTONIC is common to all ranks. Prints RESULT lines
 * with one sample each (stats.h format). Plain MPI + mpi-ext.h.
 *
 * `detect host`: nobody kills; rank 0 prints "DETECT_READY" when every
 * rank waits, the script kills the last rank's daemon (kill -9 hcored), and
 * rank 0 prints "DETECT_SEEN <first> <last>" (CLOCK_REALTIME seconds when
 * the first and the last survivor saw the error) for the script to subtract
 * its kill time from. */
#include <mpi-ext.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "ft_bench.h"

int main(int argc, char **argv) {
    int rank, size;
    ft_bench_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size < 2 || size > 256) {
        if (rank == 0) fprintf(stderr, "detect: needs 2..256 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int victim = size - 1, host = argc > 1 && strcmp(argv[1], "host") == 0;
    int pid = (int)getpid(), x = 0, cls = -1;
    int *pids = malloc(sizeof(int) * (size_t)size);
    MPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim) {
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never sent: killed here */
        return 3;
    }

    double t_kill = 0;
    if (host && rank == 0) {
        printf("DETECT_READY\n");
        fflush(stdout);
    }
    if (rank == 0 && !host) {
        t_kill = now();
        kill((pid_t)pids[victim], SIGKILL);
    }
    int rc = MPI_Recv(&x, 1, MPI_INT, victim, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double t_seen = now();
    struct timespec real;
    clock_gettime(CLOCK_REALTIME, &real);
    double real_seen = (double)real.tv_sec + (double)real.tv_nsec * 1e-9, real_first = 0, real_last = 0;
    MPI_Error_class(rc, &cls);
    int bad = cls != MPIX_ERR_PROC_FAILED;

    /* Survivors only from here: shrink (no revoke: a survivor still
     * waiting would see MPIX_ERR_REVOKED instead of the failure), report. */
    double t_enter = now();
    MPI_Comm s;
    bad |= MPIX_Comm_shrink(MPI_COMM_WORLD, &s) != MPI_SUCCESS;
    double t_left = now();
    double in[3] = {t_seen, -t_enter, t_left}, out[3], first_seen = 0;
    MPI_Reduce(in, out, 3, MPI_DOUBLE, MPI_MAX, 0, s);
    MPI_Reduce(&t_seen, &first_seen, 1, MPI_DOUBLE, MPI_MIN, 0, s);
    MPI_Reduce(&real_seen, &real_first, 1, MPI_DOUBLE, MPI_MIN, 0, s);
    MPI_Reduce(&real_seen, &real_last, 1, MPI_DOUBLE, MPI_MAX, 0, s);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_LOR, s);
    if (rank == 0 && host) {
        printf("DETECT_SEEN %.6f %.6f\n", real_first, real_last);
        bench_report("shrink_after", size - 1, 0, "us", &(double){(out[2] + out[1]) * 1e6}, 1);
    } else if (rank == 0) {
        double slow = (out[0] - t_kill) * 1e6, fast = (first_seen - t_kill) * 1e6, shrink = (out[2] + out[1]) * 1e6;
        printf("# detect: first survivor %.0f us, last %.0f us after the kill\n", fast, slow);
        bench_report("detect_rank", size, 0, "us", &slow, 1);
        bench_report("shrink_after", size - 1, 0, "us", &shrink, 1);
        if (bad) fprintf(stderr, "detect: a survivor did not see MPIX_ERR_PROC_FAILED or the shrink failed\n");
    }
    MPI_Comm_free(&s);
    free(pids);
    MPI_Finalize();
    return bad;
}
