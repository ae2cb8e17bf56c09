/* Failure injection for the fault-tolerance
 * tests: real SIGKILLs, at a named point chosen by the test's environment,
 * at a random point drawn from a printed seed, or sent to a peer whose pid
 * was exchanged over MPI; and checks that end only this rank, with one
 * line saying what was wrong (support/check.h; never MPI_Abort: with
 * failures around, the job must not depend on MPI to report a test failure).
 *
 *   FT_KILL_RANK=r FT_KILL_AT=point   ft_kill_self_at("point") kills rank r there
 *   FT_SEED=s                         the seed of ft_seed() (else from the clock; printed)
 *
 * Plain C, header only. Ranks are MPI_COMM_WORLD ranks at MPI_Init. */
#ifndef FT_INJECT_H
#define FT_INJECT_H

#define CHECK_ENDS_RANK_ONLY
#include "support/check.h"

#include <mpi-ext.h>
#include <mpi.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* MPI_Init, errors returned on MPI_COMM_WORLD (a failure is then a return
 * code the test looks at), and this process's rank and the world's size. */
static inline void ft_init(int *argc, char ***argv, int *rank, int *size) {
    MPI_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

/* This process's world rank as of MPI_Init (kill points name the original
 * rank, also in tests that shrink the world). */
static inline int ft_rank(void) {
    return check_rank();
}

/* The error class a process failure shows as on comm
 * (ftmpi/FT_CONTRACTS.md, "Error codes"): MPI_ERR_OTHER in FT-MPI's comm
 * modes (BLANK, SHRINK, REBUILD, REBUILD_APPEND), MPIX_ERR_PROC_FAILED in
 * ULFM mode. */
static inline int ft_failure_class(MPI_Comm comm) {
    int comm_mode = FTMPI_COMM_MODE_ULFM, msg_mode = FTMPI_MSG_MODE_CONT;
    FTMPI_Comm_get_mode(comm, &comm_mode, &msg_mode);
    return comm_mode == FTMPI_COMM_MODE_ULFM || comm_mode == FTMPI_COMM_MODE_ABORT ? MPIX_ERR_PROC_FAILED
                                                                                   : MPI_ERR_OTHER;
}

/* A call must succeed or fail with a process-failure class (PROC_FAILED or
 * REVOKED): what a survivor may see from an operation racing a failure. */
static inline int ft_ok_or_failed(int code) {
    int c = error_class(code);
    return c == MPI_SUCCESS || c == MPIX_ERR_PROC_FAILED || c == MPIX_ERR_REVOKED;
}

/* The communicator a test works on: a duplicate of MPI_COMM_WORLD, as
 * ULFM programs usually do, or MPI_COMM_WORLD itself with FT_ON_WORLD=1
 * (errors return either way). */
static inline MPI_Comm ft_work_comm(void) {
    const char *w = getenv("FT_ON_WORLD");
    MPI_Comm c = MPI_COMM_WORLD;
    if (!(w && strcmp(w, "1") == 0)) CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return c;
}

/* MPI_Init, then the work communicator and this rank's place in it. */
static inline MPI_Comm ft_init_work(int *argc, char ***argv, int *rank, int *size) {
    MPI_Init(argc, argv);
    MPI_Comm comm = ft_work_comm();
    MPI_Comm_rank(comm, rank);
    MPI_Comm_size(comm, size);
    return comm;
}

/* Before a kill at a chosen point: every rank of comm has finished what
 * came before, and has left the synchronization itself, when `actor` (the
 * rank about to kill or die) returns — each rank sends it a message after a
 * barrier, and it waits for all of them. Collective over comm. */
static inline void ft_sync_before_kill(MPI_Comm comm, int actor) {
    int rank, size, x = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    CHECK_MPI(MPI_Barrier(comm));
    if (rank != actor) {
        CHECK_MPI(MPI_Send(&x, 1, MPI_INT, actor, 32766, comm));
        return;
    }
    for (int r = 0; r < size - 1; ++r)
        CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 32766, comm, MPI_STATUS_IGNORE));
}

/* Dies now, for real: no handler, no MPI_Finalize, no bye to the peers. */
static inline void ft_die(void) {
    fflush(stdout);
    fflush(stderr);
    raise(SIGKILL);
    _exit(137); /* not reached */
}

/* The victim named by the environment (FT_KILL_RANK), or -1. */
static inline int ft_kill_rank(void) {
    const char *r = getenv("FT_KILL_RANK");
    return r && *r ? atoi(r) : -1;
}

static inline int ft_kill_point_is(const char *point) {
    const char *at = getenv("FT_KILL_AT");
    return at && strcmp(at, point) == 0;
}

/* Raises SIGKILL when this rank is FT_KILL_RANK and `point` is FT_KILL_AT. */
static inline void ft_kill_self_at(const char *point) {
    if (ft_kill_rank() == ft_rank() && ft_kill_point_is(point)) {
        printf("rank %d: killing myself at %s\n", ft_rank(), point);
        ft_die();
    }
}

/* ---- seeded random points: the seed is printed so a failing run can be
 * repeated with FT_SEED=<seed>. Every rank derives the same sequence from
 * the seed, which rank 0 chooses and broadcasts. */
static uint64_t ft_rng_state_ = 0;

static inline unsigned ft_seed(void) {
    unsigned seed = 0;
    if (ft_rank() == 0) {
        const char *s = getenv("FT_SEED");
        if (s && *s) {
            seed = (unsigned)strtoul(s, NULL, 10);
        } else {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = (unsigned)(ts.tv_nsec ^ (ts.tv_sec * 2654435761u) ^ (unsigned)getpid());
        }
        printf("FT_SEED=%u (repeat this run with -x FT_SEED=%u)\n", seed, seed);
        fflush(stdout);
    }
    MPI_Bcast(&seed, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    ft_rng_state_ = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 1;
    return seed;
}

/* Uniform in [0, n) (splitmix64), the same on every rank. */
static inline int ft_random(int n) {
    uint64_t z = (ft_rng_state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (int)(z % (uint64_t)n);
}

/* ---- killing a peer: every rank's pid, exchanged over comm (collective). */
static inline void ft_exchange_pids(MPI_Comm comm, int *pids) {
    int me = (int)getpid();
    CHECK_MPI(MPI_Allgather(&me, 1, MPI_INT, pids, 1, MPI_INT, comm));
}

static inline void ft_kill_pid(int pid) {
    CHECK(kill((pid_t)pid, SIGKILL) == 0, "kill(%d, SIGKILL) failed", pid);
}

/* Seconds on a monotonic clock, for deadlines and latencies. */
static inline double ft_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Waits (up to `seconds`) until this process knows `n` failed members of
 * comm (MPIX_Comm_get_failed): a failure reaches each process on its own
 * time, and acknowledging before it arrived acknowledges nothing. */
static inline void ft_wait_known_failures(MPI_Comm comm, int n, double seconds) {
    double deadline = ft_now() + seconds;
    for (;;) {
        MPI_Group g;
        int k = 0, flag;
        CHECK_MPI(MPIX_Comm_get_failed(comm, &g));
        MPI_Group_size(g, &k);
        MPI_Group_free(&g);
        if (k >= n) return;
        CHECK(ft_now() < deadline, "only %d of %d failures known after %.0f s", k, n, seconds);
        MPI_Iprobe(MPI_ANY_SOURCE, 32767, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE); /* lets MPI progress */
    }
}

#endif
