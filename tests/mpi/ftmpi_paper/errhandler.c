/* The FT-MPI paper's error-handler recovery as it writes it: Figure 1's flow with Example 5's
 * error handler. The handler is installed with MPI_Errhandler_create / get /
 * free / set on MPI_COMM_WORLD; a setjmp marks the top level; on a failure
 * the next MPI call enters the handler, which blocks in MPI_Comm_dup (the
 * collective recovery), loads the user-level checkpoint and longjmps back to
 * the top. A restarted process (REBUILD) learns it from MPI_Init, recovers
 * the same way and continues. Rank FT_KILL_RANK (not 0) SIGKILLs itself at
 * iteration FT_KILL_ITER; the final sum must equal what the sizes of
 * MPI_COMM_WORLD before and after the failure give. Run in SHRINK and
 * REBUILD. */
#include <mpi.h>

#include "inject.h"

#include <setjmp.h>

#define MCW MPI_COMM_WORLD

enum { iterations = 10 };

static jmp_buf top_level;
static volatile int in_recovery;
static int handler_calls, handler_code = MPI_SUCCESS, recoveries;
/* The user-level checkpoint: the next iteration and the sum so far (the
 * same on every rank, so rank 0's copy is everyone's). */
static int ckpt[2];

/* Everyone alive (and a replacement) meets here: rank 0's checkpoint
 * becomes everyone's. */
static void load_checkpoint(void) {
    CHECK_MPI(MPI_Bcast(ckpt, 2, MPI_INT, 0, MCW));
}

/* The collective recovery, retried when a failure interrupts it (the error
 * then comes back here through the handler, which returns at once). */
static void recover(void) {
    MPI_Comm newcom = MPI_COMM_NULL;
    int attempt, rc = MPI_ERR_OTHER;
    for (attempt = 0; attempt < 8 && rc != MPI_SUCCESS; ++attempt) {
        rc = MPI_Comm_dup(MCW, &newcom);
        CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_OTHER, "MPI_Comm_dup returned %d (%s)", rc, error_class_name(rc));
    }
    CHECK(rc == MPI_SUCCESS, "no recovery after %d attempts", attempt);
    MPI_Comm_free(&newcom);
    ++recoveries;
}

static void errhandleruserfunc(MPI_Comm *comm, int *code, ...) {
    ++handler_calls;
    handler_code = *code;
    CHECK(*comm == MCW, "the handler was called for another communicator");
    if (in_recovery) return; /* a failure during the recovery: recover() retries */
    in_recovery = 1;
    recover();
    load_checkpoint();
    in_recovery = 0;
    longjmp(top_level, 1);
}

/* The computation, from the checkpoint on: every iteration counts the
 * ranks of MPI_COMM_WORLD. A failure never returns from an MPI call here:
 * the handler recovers and comes back through the top level. */
static void solve(int rank, int victim, int kill_iter, int restarted) {
    while (ckpt[0] < iterations) {
        if (ckpt[0] == kill_iter && !restarted && recoveries == 0) {
            ft_sync_before_kill(MCW, victim);
            if (rank == victim) {
                printf("rank %d: killing myself at iteration %d\n", rank, ckpt[0]);
                ft_die();
            }
        }
        int one = 1, sum = 0, size = 0;
        MPI_Comm_size(MCW, &size);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MCW);
        CHECK(sum == size, "iteration %d: %d ranks answered, MPI_COMM_WORLD has %d", ckpt[0], sum, size);
        ckpt[1] += sum;
        ckpt[0]++;
    }
}

static void install_handler(void) {
    MPI_Handler_function *ehf;
    MPI_Errhandler errh, errh_org;
    /* ---- Example 5. Installing an error handler under MPI ---- */
    ehf = (MPI_Handler_function *)(&errhandleruserfunc); /* get handle to my error handler */

    MPI_Errhandler_create(ehf, &errh);  /* create MPI handle to my function */
    MPI_Errhandler_get(MCW, &errh_org); /* get original MPI handler */
    MPI_Errhandler_free(&errh_org);
    MPI_Errhandler_set(MCW, errh); /* replace default with my function */
    MPI_Errhandler_free(&errh);    /* MCW keeps it */
}

int main(int argc, char **argv) {
    int rc = MPI_Init(&argc, &argv);
    const int restarted = rc == MPI_INIT_RESTARTED_NODE;
    CHECK(rc == MPI_SUCCESS || restarted, "MPI_Init returned %d", rc);
    int rank, size;
    MPI_Comm_rank(MCW, &rank);
    MPI_Comm_size(MCW, &size);
    const int original_size = size;
    const int victim = ft_kill_rank();
    const char *at = getenv("FT_KILL_ITER");
    const int kill_iter = at && *at ? atoi(at) : 3;
    CHECK(victim > 0 && victim < size, "FT_KILL_RANK must name a rank other than 0");
    CHECK(kill_iter > 0 && kill_iter < iterations, "FT_KILL_ITER out of range");

    int comm_mode = -1, msg_mode = -1;
    FTMPI_Comm_get_mode(MCW, &comm_mode, &msg_mode);
    install_handler();
    if (restarted) {
        /* A restarted process: load the recovery data, not the initial data. */
        CHECK(comm_mode == FTMPI_COMM_MODE_REBUILD && rank == victim, "rank %d restarted in mode %d", rank, comm_mode);
        printf("rank %d: restarted\n", rank);
        recover();
        load_checkpoint();
    } else {
        ckpt[0] = 0; /* initial data */
        ckpt[1] = 0;
    }

    setjmp(top_level); /* the top level: a recovery comes back here */
    solve(rank, victim, kill_iter, restarted);

    int final_size = 0;
    MPI_Comm_size(MCW, &final_size);
    const int expect = comm_mode == FTMPI_COMM_MODE_SHRINK
        ? kill_iter * original_size + (iterations - kill_iter) * (original_size - 1)
        : iterations * original_size;
    CHECK(ckpt[1] == expect, "the sum is %d, expected %d", ckpt[1], expect);
    CHECK(final_size == (comm_mode == FTMPI_COMM_MODE_SHRINK ? original_size - 1 : original_size),
          "MPI_COMM_WORLD has %d ranks after the recovery", final_size);
    if (!restarted) {
        CHECK(recoveries == 1, "%d recoveries, expected 1", recoveries);
        CHECK(handler_calls >= 1 && handler_code == MPI_ERR_OTHER, "the handler was called %d times, last with %d",
              handler_calls, handler_code);
    }
    printf("rank %d: figure 1 ok: sum %d after %d recoveries (%d handler calls)\n", rank, ckpt[1], recoveries,
           handler_calls);
    MPI_Finalize();
    return 0;
}
