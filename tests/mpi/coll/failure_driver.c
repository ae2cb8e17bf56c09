/* Runs a failure test program as an N-rank job
 * without a launcher or a VM (connection loss is a failure at once): forks
 * the ranks with FTMPI_JOB/RANK/SIZE and FTMPI_WIREUP=dir:<fresh directory>,
 * then waits up to 30 s. The victim is rank COLL_FAILURE_VICTIM (default:
 * the last rank; -1: nobody), passed on to the ranks in the same variable. Passes when
 * the victim died of SIGKILL and every other rank exited 0, i.e. returned
 * from its collective as the program requires instead of hanging; on
 * timeout it kills the job and fails.
 *
 *   coll_failure_driver N path/to/program [args...] */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: coll_failure_driver N program [args...]\n");
        return 2;
    }
    const int n = atoi(argv[1]);
    const char *v = getenv("COLL_FAILURE_VICTIM");
    const int victim_rank = v ? atoi(v) : n - 1;
    if (n < 2 || victim_rank < -1 || victim_rank >= n) {
        fprintf(stderr, "coll_failure_driver: need N >= 2 and -1 (nobody) <= victim < N\n");
        return 2;
    }
    char dir[] = "/tmp/coll-failure.XXXXXX";
    if (!mkdtemp(dir)) return 2;
    char wireup[64], job[32], value[16];
    snprintf(wireup, sizeof wireup, "dir:%s", dir);
    snprintf(job, sizeof job, "%d", (int)getpid());
    pid_t *pids = calloc((size_t)n, sizeof(pid_t));
    for (int r = 0; r < n; ++r) {
        pids[r] = fork();
        if (pids[r] == 0) {
            setenv("FTMPI_JOB", job, 1);
            snprintf(value, sizeof value, "%d", r);
            setenv("FTMPI_RANK", value, 1);
            snprintf(value, sizeof value, "%d", n);
            setenv("FTMPI_SIZE", value, 1);
            setenv("FTMPI_WIREUP", wireup, 1);
            snprintf(value, sizeof value, "%d", victim_rank);
            setenv("COLL_FAILURE_VICTIM", value, 1);
            execv(argv[2], argv + 2);
            _exit(127);
        }
    }
    int failures = 0, left = n;
    const time_t deadline = time(NULL) + 30;
    while (left > 0 && time(NULL) < deadline) {
        int status;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid <= 0) {
            usleep(10000);
            continue;
        }
        for (int r = 0; r < n; ++r) {
            if (pids[r] != pid) continue;
            pids[r] = 0;
            --left;
            const int victim = r == victim_rank;
            const int ok = victim ? WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL
                                  : WIFEXITED(status) && WEXITSTATUS(status) == 0;
            if (!ok) {
                fprintf(stderr, "rank %d: %s %d\n", r, WIFEXITED(status) ? "exit status" : "signal",
                        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
                ++failures;
            }
        }
    }
    for (int r = 0; r < n; ++r)
        if (pids[r] > 0) {
            fprintf(stderr, "rank %d still running after 30 s: hung in a collective\n", r);
            kill(pids[r], SIGKILL);
            waitpid(pids[r], NULL, 0);
            ++failures;
        }
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    free(pids);
    if (failures == 0) printf("failure: %d survivors returned as required, none hung\n", victim_rank < 0 ? n : n - 1);
    return failures ? 1 : 0;
}
