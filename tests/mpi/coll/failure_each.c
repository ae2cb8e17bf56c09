/* One rank of the per-collective failure test
 * (failure_driver.c starts the job and names the victim in
 * COLL_FAILURE_VICTIM). After a warm-up that connects every pair, the victim
 * dies with SIGKILL and the survivors call one collective:
 *
 *   failure_each <collective> before [strict]
 *     the victim dies before entering: every survivor must return, with
 *     MPI_SUCCESS or MPIX_ERR_PROC_FAILED, and every survivor whose result
 *     depends on the victim's input must report MPIX_ERR_PROC_FAILED; a
 *     survivor that succeeds must hold the right data where it can have it.
 *   failure_each <collective> during [strict]
 *     everybody starts the non-blocking form, the victim dies right after
 *     posting its first messages: every survivor must return.
 *
 * With `strict` (FTMPI_Comm_set_strict) the outcome must also be the same
 * at every survivor (except for Scatter(v), which combine nothing), and a successful Bcast must give every survivor the
 * root's data: the survivors send (class, checksum) to the lowest survivor
 * over point-to-point, which compares. Exit 0 = all as required; 1 = a
 * requirement broken (one line says which); the driver checks nobody hung. */
#include <mpi-ext.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 64 /* elements per block */

static int rank, size, victim, strict;
static const char *name;

static void fail(const char *what) {
    printf("rank %d: %s (%s): %s\n", rank, name, strict ? "strict" : "plain", what);
    fflush(stdout);
    _exit(1);
}

/* Value of element i of rank r's contribution. */
static int value(int r, int i) {
    return r * 1000 + i + 1;
}

struct call {
    const char *name;
    int root;       /* -1: no root */
    int all_depend; /* every survivor's result needs every input */
};

/* Runs collective `c` (non-blocking form when nb); returns the MPI code.
 * *ok_data: 1 = verified right, 0 = verified wrong, -1 = not verifiable. */
static int run(const char *c, int nb, int root, int *sbuf, int *rbuf, int *counts, int *displs, int *ok_data) {
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Request *rq = nb ? &req : NULL;
    MPI_Datatype types[1024];
    int bytedispls[1024];
    int rc = MPI_ERR_OTHER;
    *ok_data = -1; /* not checked */
    for (int i = 0; i < size; ++i) {
        types[i] = MPI_INT;
        bytedispls[i] = displs[i] * (int)sizeof(int);
    }
#define CALL(blocking, nonblocking, ...) (nb ? MPI_##nonblocking(__VA_ARGS__, rq) : MPI_##blocking(__VA_ARGS__))
    if (!strcmp(c, "barrier"))
        rc = nb ? MPI_Ibarrier(MPI_COMM_WORLD, rq) : MPI_Barrier(MPI_COMM_WORLD);
    else if (!strcmp(c, "bcast"))
        rc = CALL(Bcast, Ibcast, rank == root ? sbuf : rbuf, N, MPI_INT, root, MPI_COMM_WORLD);
    else if (!strcmp(c, "reduce"))
        rc = CALL(Reduce, Ireduce, sbuf, rbuf, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    else if (!strcmp(c, "allreduce"))
        rc = CALL(Allreduce, Iallreduce, sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(c, "gather"))
        rc = CALL(Gather, Igather, sbuf, N, MPI_INT, rbuf, N, MPI_INT, root, MPI_COMM_WORLD);
    else if (!strcmp(c, "gatherv"))
        rc = CALL(Gatherv, Igatherv, sbuf, N, MPI_INT, rbuf, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
    else if (!strcmp(c, "scatter"))
        rc = CALL(Scatter, Iscatter, sbuf, N, MPI_INT, rbuf, N, MPI_INT, root, MPI_COMM_WORLD);
    else if (!strcmp(c, "scatterv"))
        rc = CALL(Scatterv, Iscatterv, sbuf, counts, displs, MPI_INT, rbuf, N, MPI_INT, root, MPI_COMM_WORLD);
    else if (!strcmp(c, "allgather"))
        rc = CALL(Allgather, Iallgather, sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD);
    else if (!strcmp(c, "allgatherv"))
        rc = CALL(Allgatherv, Iallgatherv, sbuf, N, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
    else if (!strcmp(c, "alltoall"))
        rc = CALL(Alltoall, Ialltoall, sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD);
    else if (!strcmp(c, "alltoallv"))
        rc = CALL(Alltoallv, Ialltoallv, sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
    else if (!strcmp(c, "alltoallw"))
        rc = CALL(Alltoallw, Ialltoallw, sbuf, counts, bytedispls, types, rbuf, counts, bytedispls, types,
                  MPI_COMM_WORLD);
    else if (!strcmp(c, "reduce_scatter"))
        rc = CALL(Reduce_scatter, Ireduce_scatter, sbuf, rbuf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(c, "reduce_scatter_block"))
        rc = CALL(Reduce_scatter_block, Ireduce_scatter_block, sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(c, "scan"))
        rc = CALL(Scan, Iscan, sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else if (!strcmp(c, "exscan"))
        rc = CALL(Exscan, Iexscan, sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
        fail("unknown collective");
#undef CALL
    if (nb && rc == MPI_SUCCESS) {
        if (rank == victim) {
            /* Push the first messages out, then die inside the collective. */
            int flag;
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
            raise(SIGKILL);
        }
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    if (rc != MPI_SUCCESS) return rc;
    /* Data a survivor can verify whatever the victim did. */
    if (!strcmp(c, "bcast") && root != victim) {
        *ok_data = 1;
        for (int i = 0; i < N; ++i)
            if (rbuf[i] != value(root, i) && rank != root) *ok_data = 0;
    } else if (!strcmp(c, "scatter") || !strcmp(c, "scatterv")) {
        *ok_data = 1;
        for (int i = 0; i < N; ++i)
            if (rbuf[i] != value(root, rank * N + i)) *ok_data = 0;
    } else if (!strcmp(c, "allreduce") || (!strcmp(c, "reduce") && rank == root)) {
        /* Success despite a dead member can only be right if it contributed. */
        *ok_data = 1;
        for (int i = 0; i < N; ++i) {
            long sum = 0;
            for (int r = 0; r < size; ++r) sum += value(r, i);
            if (rbuf[i] != sum) *ok_data = 0;
        }
    }
    return rc;
}

/* Survivors whose result needs the victim's input (when it never entered). */
static int depends(const char *c, int root) {
    if (!strcmp(c, "barrier") || !strcmp(c, "allreduce") || !strncmp(c, "allgather", 9) || !strncmp(c, "alltoall", 8) ||
        !strncmp(c, "reduce_scatter", 14))
        return 1;
    if (!strcmp(c, "bcast") || !strncmp(c, "scatter", 7)) return root == victim;
    if (!strcmp(c, "reduce") || !strncmp(c, "gather", 6)) return rank == root;
    if (!strcmp(c, "scan") || !strcmp(c, "exscan")) return rank > victim;
    return 0;
}

static unsigned checksum(const int *buf, int n) {
    unsigned h = 2166136261u;
    for (int i = 0; i < n; ++i) h = (h ^ (unsigned)buf[i]) * 16777619u;
    return h;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: failure_each collective before|during [strict]\n");
        return 2;
    }
    name = argv[1];
    const int during = !strcmp(argv[2], "during");
    strict = argc > 3 && !strcmp(argv[3], "strict");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *v = getenv("COLL_FAILURE_VICTIM");
    victim = v ? atoi(v) : size - 1;
    /* Root: COLL_FAILURE_ROOT, else 0 (the victim is never 0 unless asked). */
    const char *rt = getenv("COLL_FAILURE_ROOT");
    const int root = rt ? atoi(rt) : 0;
    if (strict && FTMPI_Comm_set_strict(MPI_COMM_WORLD, 1) != MPI_SUCCESS) fail("FTMPI_Comm_set_strict failed");

    int *sbuf = malloc(sizeof(int) * (size_t)(N * size)), *rbuf = malloc(sizeof(int) * (size_t)(N * size));
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; ++i) {
        counts[i] = N;
        displs[i] = i * N;
    }
    /* Rank r contributes value(r, i); a root's scatter block j holds
     * value(root, j*N + i), and bcast's root buffer value(root, i). */
    for (int i = 0; i < N * size; ++i) sbuf[i] = value(rank, i);
    /* Warm-up: every pair connected, so the victim's death is a broken
     * connection everywhere it matters. */
    if (MPI_Alltoall(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS) fail("warm-up failed");
    if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) fail("warm-up barrier failed");
    if (!during && rank == victim) raise(SIGKILL);
    memset(rbuf, 0, sizeof(int) * (size_t)(N * size));

    int ok_data;
    const int rc = run(name, during, root, sbuf, rbuf, counts, displs, &ok_data);
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    printf("rank %d: %s %s%s -> %s\n", rank, name, during ? "during" : "before", strict ? " strict" : "",
           cls == MPI_SUCCESS                ? "success"
               : cls == MPIX_ERR_PROC_FAILED ? "MPIX_ERR_PROC_FAILED"
                                             : "other error");
    fflush(stdout);
    if (cls != MPI_SUCCESS && cls != MPIX_ERR_PROC_FAILED) fail("an error other than MPIX_ERR_PROC_FAILED");
    if (!during && depends(name, root) && cls == MPI_SUCCESS) fail("succeeded although it needs the dead rank");
    if (cls == MPI_SUCCESS && ok_data == 0) fail("succeeded with wrong data");

    /* Scatter(v) hand out one input each: not strict (FT_CONTRACTS.md). */
    if (strict && strncmp(name, "scatter", 7) != 0) {
        /* Same outcome (and same Bcast data) at every survivor. */
        const int collector = victim == 0 ? 1 : 0;
        unsigned mine[2] = {(unsigned)cls, 0};
        if (!strcmp(name, "bcast") && cls == MPI_SUCCESS) mine[1] = checksum(rank == root ? sbuf : rbuf, N);
        if (rank != collector) {
            if (MPI_Send(mine, 2, MPI_UNSIGNED, collector, 99, MPI_COMM_WORLD) != MPI_SUCCESS)
                fail("could not report to the collector");
        } else {
            for (int r = 0; r < size; ++r) {
                if (r == victim || r == collector) continue;
                unsigned theirs[2];
                if (MPI_Recv(theirs, 2, MPI_UNSIGNED, r, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                    fail("could not hear from a survivor");
                if (theirs[0] != mine[0]) fail("outcome differs between survivors");
                if (theirs[1] != mine[1]) fail("Bcast data differs between survivors");
            }
        }
    }
    _exit(0); /* without MPI_Finalize: the job has a dead member */
}
