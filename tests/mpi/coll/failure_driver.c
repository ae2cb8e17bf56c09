/* Owner: coll (mpicoll). Runs failure_rank as an N-rank job without the
 * test launcher (which ends the whole job at the first failure): forks the
 * ranks with FTMPI_JOB/RANK/SIZE and FTMPI_WIREUP=dir:<fresh directory>,
 * then waits up to 30 s. Passes when the last rank died of SIGKILL and every
 * other rank exited 0, i.e. saw an error from a collective instead of
 * hanging; on timeout it kills the job and fails.
 *
 *   coll_failure_driver N path/to/failure_rank */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: coll_failure_driver N program\n");
        return 2;
    }
    const int n = atoi(argv[1]);
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
            execl(argv[2], argv[2], (char *)NULL);
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
            const int victim = r == n - 1;
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
    if (failures == 0) printf("failure: %d survivors saw an error, none hung\n", n - 1);
    return failures ? 1 : 0;
}
