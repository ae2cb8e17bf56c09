/* chaos_job — the checked fault-tolerant job of the chaos soak.
 *
 *   ftmpirun --comm-mode shrink --strict-collectives -np N chaos_job DIR STEPS MS
 *   ftmpirun --comm-mode ulfm -np N chaos_job DIR STEPS MS
 *
 * STEPS rounds of: every member adds its share of a known series, an
 * allreduce combines the shares, the round's total is accumulated. A round
 * whose allreduce failed anywhere is done again on a communicator without the
 * dead (SHRINK: MPI_Comm_dup of MPI_COMM_WORLD; ULFM: agree, revoke, shrink),
 * so the final total is exact whoever died. Each round takes about MS ms.
 *
 * What the soak driver needs from it, all under DIR:
 *   pre<r>.pid   written before MPI_Init (r from FTMPI_RANK): a victim for a
 *                kill during MPI_Init;
 *   rank<r>.pid  written after MPI_Init;
 *   job          the job's name in /dev/shm (FTMPI_JOB[-FTMPI_JOB_KEY]), to
 *                find the files it leaves there;
 *   exit<r>      created by the driver: rank r then calls exit(1) at its next
 *                round, the "rank exits by itself" fault.
 * On stdout: "rank R: failure seen in round S" the moment a rank sees a
 * failure (before recovering), and at the end from the first survivor
 * "chaos_job: total T, expected E: correct|WRONG". Exit 0 when correct. */
#include <mpi-ext.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define SHARE 50000LL

/* The series: term i of round s. */
static long long term(long long s, long long i) {
    return ((s * SHARE + i) * 7919) % 65537;
}

static void write_file(const char *dir, const char *name, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *out = fopen(tmp, "w");
    if (!out) return;
    fputs(text, out);
    fclose(out);
    rename(tmp, path); /* the driver never reads half a file */
}

static void write_pid(const char *dir, const char *prefix, int rank) {
    char name[64], text[32];
    snprintf(name, sizeof name, "%s%d.pid", prefix, rank);
    snprintf(text, sizeof text, "%d\n", (int)getpid());
    write_file(dir, name, text);
}

static void pause_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {}
}

/* One try at a communicator without the dead, by the comm mode's means:
 * ULFM's revoke + shrink, or FT-MPI's SHRINK at MPI_Comm_dup of
 * MPI_COMM_WORLD (which also repairs MPI_COMM_WORLD in place). */
static int try_recover(MPI_Comm comm, int ulfm, MPI_Comm *fresh) {
    if (!ulfm) return MPI_Comm_dup(MPI_COMM_WORLD, fresh);
    MPIX_Comm_revoke(comm);
    return MPIX_Comm_shrink(comm, fresh);
}

/* The communicator to redo the round on; a recovery that itself meets a
 * new failure is tried again, a bounded number of times. */
static MPI_Comm without_failed(MPI_Comm comm, int ulfm) {
    MPI_Comm fresh = MPI_COMM_NULL;
    int tries = 0;
    while (try_recover(comm, ulfm, &fresh) != MPI_SUCCESS)
        if (++tries == 20) {
            fprintf(stderr, "chaos_job: recovery failed 20 times\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    MPI_Comm_set_errhandler(fresh, MPI_ERRORS_RETURN);
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    return fresh;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: chaos_job DIR STEPS MS\n");
        return 2;
    }
    const char *dir = argv[1];
    const int steps = atoi(argv[2]);
    const int step_ms = atoi(argv[3]);
    const char *env_rank = getenv("FTMPI_RANK");
    write_pid(dir, "pre", env_rank ? atoi(env_rank) : 0);
    /* The job's name in /dev/shm (ftmpi.<name>.<rank>.<incarnation>), known
     * before MPI_Init so a job stuck there can be cleaned up too. */
    const char *job = getenv("FTMPI_JOB"), *key = getenv("FTMPI_JOB_KEY");
    if (job) {
        char name[512];
        snprintf(name, sizeof name, "%s%s%s", job, key && *key ? "-" : "", key && *key ? key : "");
        write_file(dir, "job", name);
    }

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int me, world, mode = 0, msg = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    FTMPI_Comm_get_mode(MPI_COMM_WORLD, &mode, &msg);
    const int ulfm = mode == FTMPI_COMM_MODE_ULFM;
    write_pid(dir, "rank", me);
    char exit_file[4096];
    snprintf(exit_file, sizeof exit_file, "%s/exit%d", dir, me);

    MPI_Comm comm = MPI_COMM_WORLD;
    long long total = 0;
    int s = 0, recoveries = 0;
    while (s < steps) {
        if (access(exit_file, F_OK) == 0) {
            printf("rank %d: exiting with status 1 as asked, in round %d\n", me, s);
            fflush(stdout);
            exit(1);
        }
        int r, n;
        MPI_Comm_rank(comm, &r);
        MPI_Comm_size(comm, &n);
        long long share = 0;
        for (long long i = r; i < SHARE; i += n) share += term(s, i);
        pause_ms(step_ms);
        long long round = 0;
        int rc = MPI_Allreduce(&share, &round, 1, MPI_LONG_LONG, MPI_SUM, comm);
        if (ulfm) {
            /* Everyone keeps the round or everyone redoes it. */
            int fine = rc == MPI_SUCCESS;
            if (MPIX_Comm_agree(comm, &fine) != MPI_SUCCESS) fine = 0;
            rc = fine ? MPI_SUCCESS : MPIX_ERR_PROC_FAILED;
        }
        if (rc == MPI_SUCCESS) {
            total += round;
            ++s;
            continue;
        }
        printf("rank %d: failure seen in round %d\n", me, s);
        fflush(stdout);
        comm = without_failed(comm, ulfm);
        ++recoveries;
    }

    int r, n;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    int status = 0;
    if (r == 0) {
        long long expected = 0;
        for (long long k = 0; k < steps; ++k)
            for (long long i = 0; i < SHARE; ++i) expected += term(k, i);
        status = total != expected;
        printf("chaos_job: total %lld, expected %lld: %s (%d ranks of %d at the end, %d recoveries)\n", total, expected,
               status ? "WRONG" : "correct", n, world, recoveries);
        fflush(stdout);
    }
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    MPI_Finalize();
    return status;
}
