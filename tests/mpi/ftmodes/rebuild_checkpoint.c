/* REBUILD with FT-MPI's restart flow for applications: an error
 * handler that longjmps back to the recovery point, user checkpoints (in
 * memory and in a file per rank), MPI_Comm_dup(MPI_COMM_WORLD) as the
 * recovery. Rank FT_KILL_RANK SIGKILLs itself at iteration FT_KILL_ITER; its
 * replacement's MPI_Init returns MPI_INIT_RESTARTED_NODE and loads the
 * checkpoint. The final answer must equal a failure-free run's, which every
 * rank computes serially to compare. With FT_KILL_ALSO=r the victim SIGKILLs
 * rank r too, right before itself: two replacements join in one round, and
 * neither may take the other for failed (a survivor would then see a second
 * failure and recover twice). FT_REBUILD_MAX_MS bounds each survivor's
 * recovery time. With FT_GAP_KILL=g the victim's first replacement exits
 * before its MPI_Init (it never joins: the round leaves a gap); the
 * survivors see the gap and rank g kills itself, and the next round must
 * refill both the gap and g (ft/RECOVERY.md "Gaps in REBUILD"): every
 * original survivor recovers twice and the answer is still the
 * failure-free run's. */
#include "ftmodes.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

enum { iterations = 12 };

static jmp_buf recovery_point;
static volatile int in_recovery;
static long hist[iterations + 1]; /* this rank's value after each iteration */
static int last;                  /* the last iteration with a value here */
static MPI_Comm work = MPI_COMM_NULL;
static int recoveries;

static long step(long v, long sum, int rank) {
    return (v * 7 + sum + rank) % 1000003;
}

/* FT_KILL_ALSO: the second victim (the first kills it), or -1. */
static int kill_also(void) {
    const char *r = getenv("FT_KILL_ALSO");
    return r && *r ? atoi(r) : -1;
}

/* FT_GAP_KILL: the rank that dies when the survivors see a gap, or -1. */
static int gap_kill(void) {
    const char *r = getenv("FT_GAP_KILL");
    return r && *r ? atoi(r) : -1;
}

/* The number of gaps in comm (ranks a REBUILD could not replace: their
 * group entry translates to MPI_UNDEFINED). */
static int gaps(MPI_Comm comm) {
    int size = 0, n = 0;
    MPI_Group group;
    MPI_Comm_size(comm, &size);
    MPI_Comm_group(comm, &group);
    for (int r = 0; r < size; ++r) {
        int same = MPI_UNDEFINED;
        MPI_Group_translate_ranks(group, 1, &r, group, &same);
        n += same == MPI_UNDEFINED;
    }
    MPI_Group_free(&group);
    return n;
}

/* The victim's first replacement dies (SIGKILL) before MPI_Init: ftmpirun
 * started it, but it never joins the survivors. (A non-zero exit would be
 * the program's own error, which ends the job.) With FT_GAP_SLOW_MS=n it
 * stays alive instead, n ms before its MPI_Init (the injected fault: too
 * slow for the survivors' FTMPI_JOIN_MS), so the next round's request
 * finds it still running and ftmpirun must kill it first. */
static void first_replacement_never_joins(void) {
    const char *inc = getenv("FTMPI_INCARNATION"), *rank = getenv("FTMPI_RANK");
    if (gap_kill() < 0 || !inc || !rank || atoi(inc) != 1 || atoi(rank) != ft_kill_rank()) return;
    const char *slow = getenv("FT_GAP_SLOW_MS");
    if (slow && *slow) {
        printf("rank %d: replacement 1 waits %s ms before MPI_Init (a gap)\n", atoi(rank), slow);
        fflush(stdout);
        usleep((useconds_t)atoi(slow) * 1000);
        return;
    }
    printf("rank %d: replacement 1 dies before MPI_Init (a gap)\n", atoi(rank));
    ft_die();
}

/* The survivors saw a gap (the round that left it; a replacement never
 * sees one, nor does a later round): rank FT_GAP_KILL dies once every live
 * rank is past the recovery (each one's message reached it), and the
 * others' next collective fails, which takes them to the next recovery. */
static void die_at_gap(int rank, int restarted) {
    CHECK(gap_kill() >= 0 && !restarted && recoveries == 1, "rank %d: a gap after recovery %d%s", rank, recoveries,
          restarted ? " (a replacement)" : "");
    int size = 0, x = 0;
    MPI_Comm_size(work, &size);
    MPI_Barrier(work);
    if (rank != gap_kill()) {
        MPI_Send(&x, 1, MPI_INT, gap_kill(), 32766, work);
        MPI_Barrier(work);
        CHECK(0, "rank %d: the barrier after rank %d's death succeeded", rank, gap_kill());
    }
    for (int r = 0; r < size - gaps(work) - 1; ++r)
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 32766, work, MPI_STATUS_IGNORE);
    printf("rank %d: killing myself: the recovery left a gap\n", rank);
    ft_die();
}

static long failure_free_answer(int size) {
    long v[64], total = 0;
    for (int r = 0; r < size; ++r) v[r] = r + 1;
    for (int it = 0; it < iterations; ++it) {
        long s = 0;
        for (int r = 0; r < size; ++r) s += v[r];
        for (int r = 0; r < size; ++r) v[r] = step(v[r], s, r);
    }
    for (int r = 0; r < size; ++r) total += v[r];
    return total;
}

/* A failure anywhere in the computation goes back to the recovery point;
 * during the recovery itself the calls just return their error. */
static void on_error(MPI_Comm *comm, int *code, ...) {
    (void)comm;
    if (!in_recovery) longjmp(recovery_point, *code);
}

static void checkpoint_path(char *path, size_t n, int rank) {
    const char *dir = getenv("FT_CKPT_DIR");
    CHECK(dir && *dir, "FT_CKPT_DIR must be set");
    CHECK(mkdir(dir, 0755) == 0 || errno == EEXIST, "cannot make %s", dir);
    snprintf(path, n, "%s/rank%d", dir, rank);
}

static void save(int rank, int it, long v) {
    char path[512];
    checkpoint_path(path, sizeof path, rank);
    FILE *f = fopen(path, it == 0 ? "w" : "a");
    CHECK(f != NULL, "cannot write %s", path);
    fprintf(f, "%d %ld\n", it, v);
    fclose(f);
}

static void load(int rank) {
    char path[512];
    checkpoint_path(path, sizeof path, rank);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "no checkpoint %s", path);
    int it;
    long v;
    last = -1;
    while (fscanf(f, "%d %ld", &it, &v) == 2 && it >= 0 && it <= iterations) {
        hist[it] = v;
        last = it;
    }
    fclose(f);
    CHECK(last >= 0, "empty checkpoint %s", path);
}

int main(int argc, char **argv) {
    first_replacement_never_joins();
    int rc = MPI_Init(&argc, &argv);
    const int restarted = rc == MPI_INIT_RESTARTED_NODE;
    CHECK(rc == MPI_SUCCESS || restarted, "MPI_Init returned %d", rc);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size <= 64, "at most 64 ranks");
    const char *at = getenv("FT_KILL_ITER");
    const int kill_iter = at && *at ? atoi(at) : 5;
    int pids[64] = {0};
    if (kill_also() >= 0 && !restarted) {
        int pid = (int)getpid();
        MPI_Allgather(&pid, 1, MPI_INT, pids, 1, MPI_INT, MPI_COMM_WORLD);
    }
    if (restarted) {
        load(rank);
        printf("rank %d: restarted (MPI_INIT_RESTARTED_NODE), checkpoint up to iteration %d\n", rank, last);
    } else {
        hist[0] = rank + 1;
        last = 0;
        save(rank, 0, hist[0]);
    }
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);

    static double seen;
    if (setjmp(recovery_point) != 0) {
        ++recoveries;
        seen = MPI_Wtime();
        printf("rank %d: failure seen at iteration %d, recovering\n", rank, last);
        MPI_Comm_free(&work);
    }
    in_recovery = 1;
    int tries = 0;
    while (MPI_Comm_dup(MPI_COMM_WORLD, &work) != MPI_SUCCESS) CHECK(++tries < 8, "no recovery after %d tries", tries);
    in_recovery = 0;
    /* Failure seen -> working communicator: measured, and bounded by
     * FT_REBUILD_MAX_MS when that is set. */
    if (recoveries > 0) {
        const double took_ms = (MPI_Wtime() - seen) * 1e3;
        printf("rank %d: REBUILD took %.1f ms (error seen -> MPI_Comm_dup returned with the replacement in)\n", rank,
               took_ms);
        const char *max_ms = getenv("FT_REBUILD_MAX_MS");
        if (max_ms && *max_ms)
            CHECK(took_ms < atof(max_ms), "rank %d: REBUILD took %.1f ms, more than FT_REBUILD_MAX_MS=%s", rank,
                  took_ms, max_ms);
    }
    if (gaps(work) > 0) die_at_gap(rank, restarted);
    int n;
    MPI_Comm_size(work, &n);
    CHECK(n == size, "REBUILD gave %d ranks, expected %d", n, size);

    /* Restart where every rank has a checkpoint (they differ by at most one). */
    int from = last;
    MPI_Allreduce(&last, &from, 1, MPI_INT, MPI_MIN, work);
    last = from;
    if (getenv("FT_DEBUG")) printf("rank %d: restart at %d with %ld\n", rank, last, hist[last]);
    for (int it = last; it < iterations; ++it) {
        if (!restarted && rank == ft_kill_rank() && it == kill_iter) {
            if (kill_also() >= 0 && kill_also() < size && kill_also() != rank) {
                printf("rank %d: killing rank %d and myself at iteration %d\n", rank, kill_also(), it);
                kill((pid_t)pids[kill_also()], SIGKILL);
            } else {
                printf("rank %d: killing myself at iteration %d\n", rank, it);
            }
            ft_die();
        }
        long sum = 0;
        MPI_Allreduce(&hist[it], &sum, 1, MPI_LONG, MPI_SUM, work);
        hist[it + 1] = step(hist[it], sum, rank);
        save(rank, it + 1, hist[it + 1]);
        last = it + 1;
    }
    long total = 0;
    MPI_Allreduce(&hist[iterations], &total, 1, MPI_LONG, MPI_SUM, work);
    const long expect = failure_free_answer(size);
    CHECK(total == expect, "answer %ld, a failure-free run gives %ld", total, expect);
    /* An original survivor recovers once, twice when a gap took a round. */
    int expect_recoveries = gap_kill() >= 0 ? 2 : 1;
    if (restarted || ft_kill_rank() < 0 || ft_kill_rank() >= size) expect_recoveries = 0;
    CHECK(recoveries == expect_recoveries, "rank %d recovered %d times, expected %d", rank, recoveries,
          expect_recoveries);
    printf("rank %d: answer %ld equals the failure-free run's (%s, %d recoveries)\n", rank, total,
           restarted ? "replacement" : "original", recoveries);
    MPI_Comm_free(&work);
    MPI_Errhandler_free(&eh);
    MPI_Finalize();
    return 0;
}
