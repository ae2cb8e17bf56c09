/* MPIX_Comm_agree without failures: the AND of every rank's flag, the same
 * at every rank, many times in a row on one communicator (agreement ids
 * must match), on a split communicator, and MPIX_Comm_iagree overlapping
 * with point-to-point traffic. Also the error strings of the MPIX_ classes. */
#include "support/check.h"

#include <mpi-ext.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int fail(int rank, const char *what, int got, int want) {
    fprintf(stderr, "rank %d: %s: got %d, want %d\n", rank, what, got, want);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Bit b of every flag is clear at rank (round + b) % size only: the AND
     * has exactly the bits no rank cleared. */
    for (int round = 0; round < 50; ++round) {
        int flag = ~0;
        int clear_bit = (rank - round % size + size) % size;
        if (clear_bit < 30) flag &= ~(1 << clear_bit);
        int want = ~0;
        for (int r = 0; r < size; ++r) {
            int b = (r - round % size + size) % size;
            if (b < 30) want &= ~(1 << b);
        }
        int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
        if (rc != MPI_SUCCESS) return fail(rank, "agree code", rc, MPI_SUCCESS);
        if (flag != want) return fail(rank, "agreed flag", flag, want);
    }

    /* A plain yes/no where only the last rank says no. */
    int yes = rank == size - 1 ? 0 : 1;
    if (MPIX_Comm_agree(MPI_COMM_WORLD, &yes) != MPI_SUCCESS || yes != 0) return fail(rank, "yes/no", yes, 0);

    /* A split communicator (evens and odds) agrees on its own. */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int mine = rank % 2 == 0 ? 6 : 5;
    if (MPIX_Comm_agree(half, &mine) != MPI_SUCCESS || mine != (rank % 2 == 0 ? 6 : 5))
        return fail(rank, "split agree", mine, rank % 2 == 0 ? 6 : 5);
    MPI_Comm_free(&half);

    /* iagree while a ring exchange goes on. */
    int iflag = rank + 1, token = rank, got = -1;
    MPI_Request reqs[3];
    MPIX_Comm_iagree(MPI_COMM_WORLD, &iflag, &reqs[0]);
    MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&token, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &reqs[2]);
    if (MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE) != MPI_SUCCESS) return fail(rank, "waitall", 1, 0);
    int want_and = 1;
    for (int r = 1; r < size; ++r) want_and &= r + 1;
    if (iflag != want_and) return fail(rank, "iagree flag", iflag, want_and);
    if (got != (rank + size - 1) % size) return fail(rank, "ring token", got, (rank + size - 1) % size);

    /* Nothing failed: nothing to report. */
    MPI_Group failed;
    int n = -1;
    MPIX_Comm_get_failed(MPI_COMM_WORLD, &failed);
    MPI_Group_size(failed, &n);
    if (n != 0) return fail(rank, "get_failed size", n, 0);
    MPI_Group_free(&failed);
    int acked = -1;
    MPIX_Comm_ack_failed(MPI_COMM_WORLD, 5, &acked);
    if (acked != 0) return fail(rank, "ack_failed", acked, 0);
    int revoked = -1;
    MPIX_Comm_is_revoked(MPI_COMM_WORLD, &revoked);
    if (revoked != 0) return fail(rank, "is_revoked", revoked, 0);
    if (MPIX_Comm_revoke(MPI_COMM_NULL) != MPI_ERR_COMM) return fail(rank, "revoke(NULL)", 0, MPI_ERR_COMM);

    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    const int codes[] = {MPIX_ERR_PROC_FAILED, MPIX_ERR_PROC_FAILED_PENDING, MPIX_ERR_REVOKED, MPI_INIT_RESTARTED_NODE};
    const char *names[] = {"MPIX_ERR_PROC_FAILED", "MPIX_ERR_PROC_FAILED_PENDING", "MPIX_ERR_REVOKED",
                           "MPI_INIT_RESTARTED_NODE"};
    for (int i = 0; i < 4; ++i) {
        if (MPI_Error_string(codes[i], text, &len) != MPI_SUCCESS || strncmp(text, names[i], strlen(names[i])) != 0) {
            fprintf(stderr, "rank %d: error string of %d is '%s'\n", rank, codes[i], text);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    /* Latency of a failure-free agreement (information only: the host is shared). */
    const int reps = 200;
    int dummy = 1;
    MPIX_Comm_agree(MPI_COMM_WORLD, &dummy);
    double t0 = MPI_Wtime();
    for (int i = 0; i < reps; ++i) MPIX_Comm_agree(MPI_COMM_WORLD, &dummy);
    double us = (MPI_Wtime() - t0) / reps * 1e6;
    t0 = MPI_Wtime();
    for (int i = 0; i < reps; ++i) MPI_Allreduce(MPI_IN_PLACE, &dummy, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD);
    double ref = (MPI_Wtime() - t0) / reps * 1e6;
    if (rank == 0)
        printf(
            "agree_basic: %d ranks ok; MPIX_Comm_agree %.1f us per call, MPI_Allreduce(BAND) %.1f us (means of %d)\n",
            size, us, ref, reps);
    MPI_Finalize();
    return 0;
}
