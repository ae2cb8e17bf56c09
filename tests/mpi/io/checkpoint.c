/* The checkpoint recipe of the fault-tolerance chapter with MPI-IO: a ULFM
 * job evolves a block-distributed array, and every CKPT steps writes it with
 * MPI_File_write_at_all into one of two checkpoint files (alternating, so a
 * checkpoint torn by a failure never replaces the last good one), agrees
 * with MPIX_Comm_agree that every rank's write succeeded, and only then
 * commits that step. A rank is killed (FT_KILL_RANK, at step FT_KILL_STEP,
 * FT_KILL_WHERE=step or ckpt: just before its checkpoint write); the
 * survivors revoke, shrink, redistribute the array over the survivors by
 * reading the last committed checkpoint, and finish with the failure-free
 * answer (which every rank also computes serially to check). */
#include "inject.h"

#include <stdint.h>

#define N     6000
#define STEPS 60
#define CKPT  10

static int64_t evolve(int64_t x, int64_t i, int step) {
    return (x * 3 + i + step) % 1000003;
}

static void block_of(int rank, int size, int *lo, int *hi) {
    *lo = (int)((int64_t)N * rank / size);
    *hi = (int)((int64_t)N * (rank + 1) / size);
}

/* Writes the checkpoint of `step`: the header (the step) by rank 0, the
 * array at 8 + 8 * i. Returns the local outcome of the collective calls. */
static int write_checkpoint(MPI_Comm comm, const char *base, int step, const int64_t *x, int lo, int hi) {
    char name[300];
    snprintf(name, sizeof name, "%s.%d", base, (step / CKPT) % 2);
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_File fh;
    int rc = MPI_File_open(comm, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) return rc;
    int64_t header = step;
    rc = MPI_File_write_at_all(fh, 8 + 8 * (MPI_Offset)lo, x, hi - lo, MPI_INT64_T, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_write_at_all(fh, 0, &header, rank == 0 ? 1 : 0, MPI_INT64_T, MPI_STATUS_IGNORE);
    int crc = MPI_File_close(&fh);
    return rc != MPI_SUCCESS ? rc : crc;
}

static int read_checkpoint(MPI_Comm comm, const char *base, int step, int64_t *x, int lo, int hi) {
    char name[300];
    snprintf(name, sizeof name, "%s.%d", base, (step / CKPT) % 2);
    MPI_File fh;
    int rc = MPI_File_open(comm, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) return rc;
    int64_t header = -1;
    rc = MPI_File_read_at_all(fh, 0, &header, 1, MPI_INT64_T, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_File_read_at_all(fh, 8 + 8 * (MPI_Offset)lo, x, hi - lo, MPI_INT64_T, MPI_STATUS_IGNORE);
    int crc = MPI_File_close(&fh);
    CHECK(rc != MPI_SUCCESS || header == step, "checkpoint file holds step %lld, not %d", (long long)header, step);
    return rc != MPI_SUCCESS ? rc : crc;
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Comm comm = ft_init_work(&argc, &argv, &rank, &size);
    const char *ks = getenv("FT_KILL_STEP"), *where = getenv("FT_KILL_WHERE");
    const int kill_step = ks ? atoi(ks) : -1;
    const int kill_in_ckpt = where && strcmp(where, "ckpt") == 0;

    char base[256];
    if (rank == 0) snprintf(base, sizeof base, "/tmp/ftmpi-io-ckpt-%ld", (long)getpid());
    CHECK_MPI(MPI_Bcast(base, sizeof base, MPI_CHAR, 0, comm));

    /* The failure-free answer, serially. */
    static int64_t all[N];
    for (int i = 0; i < N; ++i) all[i] = i;
    for (int s = 1; s <= STEPS; ++s)
        for (int i = 0; i < N; ++i) all[i] = evolve(all[i], i, s);
    int64_t expected = 0;
    for (int i = 0; i < N; ++i) expected += all[i];

    static int64_t x[N];
    int lo, hi;
    block_of(rank, size, &lo, &hi);
    for (int i = lo; i < hi; ++i) x[i - lo] = i;
    int committed = -1, recoveries = 0;
    int step = 1;
    while (step <= STEPS) {
        int rc = MPI_SUCCESS;
        if (step == kill_step && !kill_in_ckpt && ft_rank() == ft_kill_rank()) ft_die();
        for (int i = lo; i < hi; ++i) x[i - lo] = evolve(x[i - lo], i, step);
        int64_t local = 0, sum = 0;
        for (int i = lo; i < hi; ++i) local += x[i - lo];
        rc = MPI_Allreduce(&local, &sum, 1, MPI_INT64_T, MPI_SUM, comm);
        if (rc == MPI_SUCCESS && step % CKPT == 0) {
            if (step == kill_step && kill_in_ckpt && ft_rank() == ft_kill_rank()) ft_die();
            int wrc = write_checkpoint(comm, base, step, x, lo, hi);
            /* The recipe: write, agree, commit. */
            int ok = wrc == MPI_SUCCESS;
            rc = MPIX_Comm_agree(comm, &ok);
            if (rc == MPI_SUCCESS && ok)
                committed = step;
            else if (rc == MPI_SUCCESS)
                rc = wrc != MPI_SUCCESS ? wrc : MPIX_ERR_PROC_FAILED;
        }
        if (rc == MPI_SUCCESS) {
            ++step;
            continue;
        }
        /* Recovery: drop the failed, restore the last committed state. */
        CHECK(ft_ok_or_failed(rc), "step %d failed with %s", step, error_class_name(rc));
        CHECK(committed >= 0, "a failure before the first checkpoint");
        for (;;) {
            MPI_Comm smaller;
            MPIX_Comm_revoke(comm);
            CHECK_MPI(MPIX_Comm_shrink(comm, &smaller));
            MPI_Comm_free(&comm);
            comm = smaller;
            MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
            MPI_Comm_rank(comm, &rank);
            MPI_Comm_size(comm, &size);
            block_of(rank, size, &lo, &hi);
            int rrc = read_checkpoint(comm, base, committed, x, lo, hi);
            int ok = rrc == MPI_SUCCESS;
            if (MPIX_Comm_agree(comm, &ok) == MPI_SUCCESS && ok) break;
        }
        ++recoveries;
        if (rank == 0) printf("recovered on %d ranks from the checkpoint of step %d\n", size, committed);
        step = committed + 1;
    }
    int64_t local = 0, sum = 0;
    for (int i = lo; i < hi; ++i) local += x[i - lo];
    CHECK_MPI(MPI_Allreduce(&local, &sum, 1, MPI_INT64_T, MPI_SUM, comm));
    CHECK(sum == expected, "answer %lld, failure-free answer %lld", (long long)sum, (long long)expected);
    CHECK(kill_step < 0 || recoveries > 0, "the victim's death was never noticed");
    if (rank == 0) {
        printf("checkpoint: answer %lld correct after %d recoveries (last commit: step %d)\n", (long long)sum,
               recoveries, committed);
        char name[300];
        for (int k = 0; k < 2; ++k) {
            snprintf(name, sizeof name, "%s.%d", base, k);
            unlink(name);
        }
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
