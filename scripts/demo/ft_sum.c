/* ft_sum — the demo's fault-tolerant job: a long sum computed block by block
 * over all ranks, that survives ranks (or whole daemons) killed from outside
 * while it runs, and checks its answer at the end.
 *
 *   ftmpirun --comm-mode shrink --strict-collectives -np 4 ft_sum [DIR [BLOCKS [MS]]]
 *   ftmpirun --comm-mode ulfm -np 4 ft_sum [DIR [BLOCKS [MS]]]
 *
 * Block b is the numbers [b*W, (b+1)*W); rank r of the current communicator
 * adds every n-th of them (f(i) = i*i mod 1000003), an allreduce combines the
 * parts. When the allreduce fails (a member died) the block is computed again
 * on the recovered communicator, so the total is exact whatever died:
 *   SHRINK: MPI_Comm_dup(MPI_COMM_WORLD) is the recovery point (FT-MPI);
 *           --strict-collectives makes the allreduce fail everywhere or nowhere.
 *   ULFM:   MPIX_Comm_agree on "it worked here", then revoke + shrink.
 * Each rank writes DIR/rank<r>.pid so a script can kill it; each block takes
 * about MS milliseconds (default 100) so there is time to. Exit 0 when the
 * answer is right. */
#include <mpi-ext.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define WIDTH 100000LL

static long long f(long long i) {
    return (i * i) % 1000003;
}

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {}
}

/* A new communicator without the failed members, by the mode's own means. */
static MPI_Comm recover(MPI_Comm comm, int ulfm) {
    MPI_Comm next = MPI_COMM_NULL;
    for (int attempt = 0; attempt < 16; ++attempt) {
        int rc;
        if (ulfm) {
            MPIX_Comm_revoke(comm);
            rc = MPIX_Comm_shrink(comm, &next);
        } else {
            rc = MPI_Comm_dup(MPI_COMM_WORLD, &next); /* recovers MPI_COMM_WORLD in place too */
        }
        if (rc == MPI_SUCCESS) {
            MPI_Comm_set_errhandler(next, MPI_ERRORS_RETURN);
            if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
            return next;
        }
    }
    fprintf(stderr, "ft_sum: no recovery after 16 attempts\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
    return MPI_COMM_NULL;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *dir = argc > 1 ? argv[1] : NULL;
    const int blocks = argc > 2 ? atoi(argv[2]) : 60;
    const int block_ms = argc > 3 ? atoi(argv[3]) : 100;
    int world_rank, world_size, mode = 0, msg = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    FTMPI_Comm_get_mode(MPI_COMM_WORLD, &mode, &msg);
    const int ulfm = mode == FTMPI_COMM_MODE_ULFM;
    if (dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rank%d.pid", dir, world_rank);
        FILE *out = fopen(path, "w");
        if (out) {
            fprintf(out, "%d\n", (int)getpid());
            fclose(out);
        }
    }

    MPI_Comm comm = MPI_COMM_WORLD;
    long long total = 0;
    int recoveries = 0;
    for (int b = 0; b < blocks;) {
        int r, n;
        MPI_Comm_rank(comm, &r);
        MPI_Comm_size(comm, &n);
        long long part = 0;
        for (long long i = b * WIDTH + r; i < (b + 1) * WIDTH; i += n) part += f(i);
        sleep_ms(block_ms);
        long long sum = 0;
        int rc = MPI_Allreduce(&part, &sum, 1, MPI_LONG_LONG, MPI_SUM, comm);
        if (ulfm) {
            int ok = rc == MPI_SUCCESS;
            int arc = MPIX_Comm_agree(comm, &ok); /* uniform: everyone redoes the block, or nobody */
            if (arc != MPI_SUCCESS) ok = 0;
            rc = ok ? MPI_SUCCESS : MPIX_ERR_PROC_FAILED;
        }
        if (rc == MPI_SUCCESS) {
            total += sum;
            ++b;
            if (r == 0 && b % 10 == 0) printf("block %d of %d done on %d ranks\n", b, blocks, n);
            fflush(stdout);
            continue;
        }
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, text, &len);
        comm = recover(comm, ulfm);
        ++recoveries;
        int nr, nn;
        MPI_Comm_rank(comm, &nr);
        MPI_Comm_size(comm, &nn);
        if (nr == 0)
            printf("block %d failed (%s); recovered (%s): %d of %d ranks go on, block %d again\n", b, text,
                   ulfm ? "revoke + shrink" : "SHRINK at MPI_Comm_dup", nn, world_size, b);
        fflush(stdout);
    }

    int r;
    MPI_Comm_rank(comm, &r);
    int status = 0;
    if (r == 0) {
        long long expect = 0;
        for (long long i = 0; i < blocks * WIDTH; ++i) expect += f(i);
        status = total == expect ? 0 : 1;
        printf("answer %lld, expected %lld: %s (%d recoveries)\n", total, expect, status ? "WRONG" : "correct",
               recoveries);
        fflush(stdout);
    }
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    MPI_Finalize();
    return status;
}
