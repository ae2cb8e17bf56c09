/* A rank that dies while the job starts, in one of two ways:
 *
 * - FT_KILL_WHEN=before_init (default): FT_KILL_RANK SIGKILLs itself before
 *   it calls MPI_Init, so it never publishes its contact and the others are
 *   (or will be) waiting for it in MPI_Init's wire-up;
 * - FT_KILL_WHEN=in_init: FT_KILL_RANK calls MPI_Init and is killed from
 *   outside while it waits there, its contact published: FT_KILLER_RANK,
 *   before its own MPI_Init (so the victim cannot have finished its
 *   wire-up), waits for the victim's contact file in the dir: wire-up's
 *   directory and a pid file the victim wrote there, then kill -9s it. The
 *   ranks below the victim wait for its TCP connection, those above it find
 *   its port closed.
 *
 * - FT_KILL_WHEN=daemon: FT_KILL_RANK enters MPI_Init and its daemon is
 *   killed from outside (init_daemon_killed.sh); FT_KILLER_RANK holds
 *   before its MPI_Init until the file FT_GO_FILE exists, which the script
 *   creates once the daemon is dead, so the job cannot finish its wire-up
 *   before.
 *
 * The wire-up hears the VM's notice of its end (proc_exit; rank_lost for a
 * lost daemon):
 *
 * - comm mode abort: the job ends at once (expect.sh checks ftmpirun's
 *   status and message; a survivor never gets past MPI_Init);
 * - the fault-tolerant modes: the survivors' MPI_Init returns within
 *   FT_INIT_DEADLINE seconds (20 unless told; the old wire-up waited 60 s),
 *   MPI_COMM_WORLD keeps its size, the dead rank is a failed process
 *   (ULFM: in MPIX_Comm_get_failed at once, a send to it gives
 *   MPIX_ERR_PROC_FAILED), the first allreduce on MPI_COMM_WORLD fails with
 *   MPIX_ERR_PROC_FAILED (ULFM: or REVOKED by a faster survivor; FT-MPI
 *   modes: MPI_ERR_OTHER) and the
 *   survivors recover as after any failure (ULFM: revoke + shrink; FT-MPI
 *   modes: MPI_Comm_dup) and check an allreduce on the result. In REBUILD
 *   the replacement takes the rank's place (REBUILD_APPEND: the last one):
 *   its MPI_Init returns MPI_INIT_RESTARTED_NODE.
 *
 * FTMPI_RANK (from the launcher) says which rank this is before MPI_Init. */
#include "ftmodes.h"

#include <signal.h>

/* FT_KILLER_RANK: the rank that kills FT_KILL_RANK in its MPI_Init (in_init). */
static int ft_killer_rank(void) {
    const char *r = getenv("FT_KILLER_RANK");
    return r && *r ? atoi(r) : -1;
}

/* The dir: wire-up's directory (the single-host launch the tests use). */
static const char *wireup_dir(void) {
    const char *w = getenv("FTMPI_WIREUP");
    CHECK(w && strncmp(w, "dir:", 4) == 0, "FT_KILL_WHEN=in_init needs the dir: wire-up (FTMPI_WIREUP=%s)", w ? w : "");
    return w + 4;
}

/* Waits (up to 20 s) until `path` exists; its content (one line) in buf. */
static void wait_for_file(const char *path, char *buf, int len) {
    const double deadline = ft_now() + 20.0;
    for (;;) {
        FILE *f = fopen(path, "r");
        if (f) {
            const int got = fgets(buf, len, f) != NULL;
            fclose(f);
            if (got) return;
        }
        CHECK(ft_now() < deadline, "%s did not appear in 20 s", path);
        usleep(5000);
    }
}

/* The victim's side of in_init: its pid where the killer looks, written
 * atomically (the killer reads a whole line or nothing). */
static void publish_pid(int rank) {
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/test-pid-%d", wireup_dir(), rank);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    CHECK(f != NULL, "cannot write %s", tmp);
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
    CHECK(rename(tmp, path) == 0, "cannot rename %s", tmp);
}

/* The killer's side: the victim's contact is published (it is in MPI_Init),
 * then it dies. */
static void kill_victim_in_init(int victim) {
    char path[4096], line[64];
    snprintf(path, sizeof path, "%s/%d", wireup_dir(), victim);
    wait_for_file(path, line, sizeof line);
    snprintf(path, sizeof path, "%s/test-pid-%d", wireup_dir(), victim);
    wait_for_file(path, line, sizeof line);
    const int pid = atoi(line);
    CHECK(pid > 1, "bad pid '%s' in %s", line, path);
    printf("rank %d: killing rank %d (pid %d) in its MPI_Init\n", ft_killer_rank(), victim, pid);
    fflush(stdout);
    CHECK(kill(pid, SIGKILL) == 0, "kill(%d) failed", pid);
}

static int comm_mode_is(const char *mode) {
    const char *m = getenv("FTMPI_COMM_MODE");
    if (m == NULL || *m == '\0') m = "ulfm"; /* the launch default */
    return strcmp(m, mode) == 0;
}

int main(int argc, char **argv) {
    const char *r = getenv("FTMPI_RANK");
    const int original = r && *r ? atoi(r) : 0;
    check_rank_ = original; /* for the checks before MPI_Init */
    const char *restarted_env = getenv("FTMPI_RESTARTED");
    const int replacement = restarted_env && strcmp(restarted_env, "1") == 0;
    const int victim = ft_kill_rank();
    const char *d = getenv("FT_INIT_DEADLINE");
    const double deadline = d && *d ? atof(d) : 20.0;

    const char *when = getenv("FT_KILL_WHEN");
    const int in_init = when && strcmp(when, "in_init") == 0;
    const int daemon_dies = when && strcmp(when, "daemon") == 0;
    CHECK(!when || in_init || daemon_dies || strcmp(when, "before_init") == 0,
          "FT_KILL_WHEN=%s: before_init, in_init or daemon", when);
    if (original == victim && !replacement) {
        if (daemon_dies) {
            printf("rank %d: entering MPI_Init, its daemon to be killed\n", original);
            fflush(stdout);
        } else if (in_init) {
            publish_pid(original);
            printf("rank %d: entering MPI_Init, to be killed there\n", original);
            fflush(stdout);
        } else {
            printf("rank %d: dying before MPI_Init\n", original);
            ft_die();
        }
    }
    if (in_init && original == ft_killer_rank() && !replacement) kill_victim_in_init(victim);
    if (daemon_dies && original == ft_killer_rank()) {
        const char *go = getenv("FT_GO_FILE");
        CHECK(go && *go, "FT_KILL_WHEN=daemon needs FT_GO_FILE");
        char line[64];
        wait_for_file(go, line, sizeof line);
    }

    const double t0 = ft_now();
    int rc = MPI_Init(&argc, &argv);
    const double took = ft_now() - t0;
    CHECK(original != victim || replacement, "the victim's MPI_Init returned");
    const int restarted = rc == MPI_INIT_RESTARTED_NODE;
    CHECK(rc == MPI_SUCCESS || restarted, "MPI_Init returned %d", rc);
    CHECK(!comm_mode_is("abort"), "MPI_Init returned in comm mode abort with rank %d dead", victim);
    CHECK(took < deadline, "MPI_Init took %.1f s (deadline %.0f s)", took, deadline);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(victim >= 0 && victim < size, "FT_KILL_RANK must name a rank");
    const char *launched = getenv("FTMPI_SIZE");
    CHECK(launched && size == atoi(launched), "MPI_COMM_WORLD has %d ranks, launched with %s", size,
          launched ? launched : "?");

    if (!restarted) {
        printf("rank %d: MPI_Init returned in %.1f s without rank %d\n", original, took, victim);
        if (comm_mode_is("ulfm")) {
            /* The failure is known when MPI_Init returns, or soon after:
             * a victim killed late in its MPI_Init may already have
             * connected to this rank, whose MPI_Init then completes with
             * everyone alive and learns of the death from its notice. */
            MPI_Group failed, world;
            int n = 0, translated = -1;
            const double known_by = ft_now() + 10.0;
            for (;;) {
                CHECK_MPI(MPIX_Comm_get_failed(MPI_COMM_WORLD, &failed));
                MPI_Group_size(failed, &n);
                if (n != 0 || ft_now() > known_by) break;
                MPI_Group_free(&failed);
                int flag = 0; /* drives progress while waiting */
                MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
                usleep(1000);
            }
            CHECK(n == 1, "%d failed processes known within 10 s of MPI_Init, expected 1", n);
            int zero = 0;
            MPI_Comm_group(MPI_COMM_WORLD, &world);
            MPI_Group_translate_ranks(failed, 1, &zero, world, &translated);
            CHECK(translated == victim, "the failed process is rank %d, expected %d", translated, victim);
            MPI_Group_free(&failed);
            MPI_Group_free(&world);
            int x = original;
            rc = MPI_Send(&x, 1, MPI_INT, victim, 1, MPI_COMM_WORLD);
            /* REVOKED only once a faster survivor has revoked the world. */
            int revoked = 0;
            MPIX_Comm_is_revoked(MPI_COMM_WORLD, &revoked);
            CHECK(error_class(rc) == ft_failure_class(MPI_COMM_WORLD) ||
                      (revoked && error_class(rc) == MPIX_ERR_REVOKED),
                  "a send to the dead rank gave %s", error_class_name(rc));
        }
        int sum = 0;
        rc = MPI_Allreduce(&original, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        /* ULFM: a survivor that saw the failure first may have revoked already. */
        CHECK(error_class(rc) == ft_failure_class(MPI_COMM_WORLD) ||
                  (comm_mode_is("ulfm") && error_class(rc) == MPIX_ERR_REVOKED),
              "the first allreduce gave %s", error_class_name(rc));
    }

    MPI_Comm work = MPI_COMM_NULL;
    if (comm_mode_is("ulfm")) {
        MPIX_Comm_revoke(MPI_COMM_WORLD);
        CHECK_MPI(MPIX_Comm_shrink(MPI_COMM_WORLD, &work));
    } else {
        work = ftm_recover(MPI_COMM_WORLD);
    }
    /* SHRINK and ULFM's shrink leave the dead rank out; BLANK keeps it as a
     * gap; REBUILD puts the replacement in its place. */
    const int rebuilt = comm_mode_is("rebuild") || comm_mode_is("rebuild-append");
    const int expect_size = comm_mode_is("blank") || rebuilt ? size : size - 1;
    int n = 0;
    MPI_Comm_size(work, &n);
    CHECK(n == expect_size, "%d ranks after the recovery, expected %d", n, expect_size);
    const int expect = size * (size - 1) / 2 - (rebuilt ? 0 : victim);
    int sum = -1;
    CHECK_MPI(MPI_Allreduce(&original, &sum, 1, MPI_INT, MPI_SUM, work));
    CHECK(sum == expect, "allreduce after the recovery gave %d, expected %d", sum, expect);
    printf("rank %d: %s, communicator of %d\n", original,
           restarted ? "replacement of the rank that died at start-up joined" : "recovered", n);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
