/* A rank that leaves things behind: a helper process started with
 * system("FT_CHILD 300 &") (FT_CHILD is a uniquely named link to sleep, so
 * the test finds it by name) and files /dev/shm/ftmpi.<job>.<rank>.<incarnation>.*
 * (a file and a FIFO, as the shared-memory transport names its own), then ends as
 * FT_END says: "kill" (SIGKILL itself), "exit" (exit(0) without
 * MPI_Finalize), "finalize" (a normal end) or "linger" (sleep FT_LINGER
 * seconds, 300 unless told, then a normal end). Every rank prints
 * "shm-file <path>" for each file it made; expect.sh checks that neither the
 * helper nor any file is left after the job. */
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file of this rank in /dev/shm: the job (FTMPI_JOB, and FTMPI_JOB_KEY after
 * a '-' when the launcher set one), the rank and the incarnation, as libftmpi's
 * comm drivers name their files, then `suffix`. */
static void shm_name(char *out, size_t n, const char *suffix, int rank) {
    char job_name[256];
    const char *key = getenv("FTMPI_JOB_KEY");
    snprintf(job_name, sizeof job_name, "%s%s%s", getenv("FTMPI_JOB") ? getenv("FTMPI_JOB") : "",
             key && *key ? "-" : "", key && *key ? key : "");
    const char *job = job_name;
    char safe[128];
    size_t i = 0;
    for (; job && job[i] && i + 1 < sizeof safe; ++i) {
        char c = job[i];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        safe[i] = ok ? c : '_';
    }
    safe[i] = '\0';
    const char *incarnation = getenv("FTMPI_INCARNATION");
    snprintf(out, n, "/dev/shm/ftmpi.%s.%d.%s.%s", safe, rank, incarnation && *incarnation ? incarnation : "0", suffix);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *child = getenv("FT_CHILD");
    const char *end = getenv("FT_END") ? getenv("FT_END") : "kill";
    if (child && *child) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%s 300 </dev/null >/dev/null 2>&1 &", child);
        if (system(cmd) != 0) {
            printf("FAILED: system(%s)\n", cmd);
            return 1;
        }
    }
    char path[256];
    shm_name(path, sizeof path, "seg", rank);
    int fd = open(path, O_CREAT | O_RDWR, 0600);
    if (fd < 0) {
        printf("FAILED: cannot create %s\n", path);
        return 1;
    }
    close(fd);
    printf("shm-file %s\n", path);
    shm_name(path, sizeof path, "fifo", rank);
    if (mkfifo(path, 0600) != 0) {
        printf("FAILED: cannot mkfifo %s\n", path);
        return 1;
    }
    printf("shm-file %s\n", path);
    printf("rank %d: ready to %s\n", rank, end);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(end, "kill") == 0) raise(SIGKILL);
    if (strcmp(end, "exit") == 0) exit(0);
    if (strcmp(end, "linger") == 0) {
        const char *s = getenv("FT_LINGER");
        sleep((unsigned)(s && *s ? atoi(s) : 300));
    }
    MPI_Finalize();
    return 0;
}
