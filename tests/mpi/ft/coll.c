/* A rank killed (SIGKILL) during a collective: every
 * survivor returns (success or a process-failure error, never a hang), a
 * collective that succeeds gives the right result, and afterwards the
 * survivors recover the ULFM way (agree, revoke, shrink) and compute on the
 * shrunk communicator.
 *
 * FT_KILL_AT names the collective (bcast reduce allreduce gather scatter
 * allgather alltoall barrier scan), FT_KILL_RANK the victim (it may be the
 * root, rank 0). Every rank runs the collective ITERS times; the victim
 * dies entering iteration KILL_ITER, while the others are inside it. A
 * survivor stops at its first error. On a duplicate of MPI_COMM_WORLD
 * (FT_ON_WORLD=1: on MPI_COMM_WORLD itself, see README.md). */
#include "inject.h"

enum { ITERS = 12, KILL_ITER = 5, COUNT = 4, MAXP = 64 };

/* Rank r's contribution at iteration it (element k). */
static int value(int r, int it, int k) {
    return 1000 * it + 10 * r + k;
}

/* One iteration of collective `name` on comm; checks the result where this
 * rank has one and the call succeeded. Returns the call's error code. */
static int run_one(MPI_Comm w, const char *name, int it, int rank, int size) {
    int send[MAXP * COUNT], recv[MAXP * COUNT];
    int rc = MPI_SUCCESS, root = 0;
    for (int i = 0; i < size * COUNT; ++i) send[i] = value(rank, it, i);
    for (int i = 0; i < size * COUNT; ++i) recv[i] = -1;
    if (strcmp(name, "bcast") == 0) {
        if (rank == root) memcpy(recv, send, COUNT * sizeof(int));
        rc = MPI_Bcast(recv, COUNT, MPI_INT, root, w);
        for (int k = 0; rc == MPI_SUCCESS && k < COUNT; ++k)
            CHECK(recv[k] == value(root, it, k), "bcast it %d: element %d is %d", it, k, recv[k]);
    } else if (strcmp(name, "reduce") == 0 || strcmp(name, "allreduce") == 0 || strcmp(name, "scan") == 0) {
        int upto = size; /* ranks whose inputs the result at this rank sums */
        if (name[0] == 'r') {
            rc = MPI_Reduce(send, recv, COUNT, MPI_INT, MPI_SUM, root, w);
            if (rank != root) return rc;
        } else if (name[0] == 'a') {
            rc = MPI_Allreduce(send, recv, COUNT, MPI_INT, MPI_SUM, w);
        } else {
            rc = MPI_Scan(send, recv, COUNT, MPI_INT, MPI_SUM, w);
            upto = rank + 1;
        }
        for (int k = 0; rc == MPI_SUCCESS && k < COUNT; ++k) {
            int want = 0;
            for (int r = 0; r < upto; ++r) want += value(r, it, k);
            CHECK(recv[k] == want, "%s it %d: element %d is %d, expected %d", name, it, k, recv[k], want);
        }
    } else if (strcmp(name, "gather") == 0 || strcmp(name, "allgather") == 0) {
        if (name[0] == 'g') {
            rc = MPI_Gather(send, COUNT, MPI_INT, recv, COUNT, MPI_INT, root, w);
            if (rank != root) return rc;
        } else {
            rc = MPI_Allgather(send, COUNT, MPI_INT, recv, COUNT, MPI_INT, w);
        }
        for (int r = 0; rc == MPI_SUCCESS && r < size; ++r)
            for (int k = 0; k < COUNT; ++k)
                CHECK(recv[r * COUNT + k] == value(r, it, k), "%s it %d: block %d element %d is %d", name, it, r, k,
                      recv[r * COUNT + k]);
    } else if (strcmp(name, "scatter") == 0) {
        rc = MPI_Scatter(send, COUNT, MPI_INT, recv, COUNT, MPI_INT, root, w);
        for (int k = 0; rc == MPI_SUCCESS && k < COUNT; ++k)
            CHECK(recv[k] == value(root, it, rank * COUNT + k), "scatter it %d: element %d is %d", it, k, recv[k]);
    } else if (strcmp(name, "alltoall") == 0) {
        rc = MPI_Alltoall(send, COUNT, MPI_INT, recv, COUNT, MPI_INT, w);
        for (int r = 0; rc == MPI_SUCCESS && r < size; ++r)
            for (int k = 0; k < COUNT; ++k)
                CHECK(recv[r * COUNT + k] == value(r, it, rank * COUNT + k),
                      "alltoall it %d: block %d element %d is %d", it, r, k, recv[r * COUNT + k]);
    } else if (strcmp(name, "barrier") == 0) {
        rc = MPI_Barrier(w);
    } else {
        CHECK(0, "unknown collective FT_KILL_AT=%s", name);
    }
    return rc;
}

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    const char *name = getenv("FT_KILL_AT");
    int victim = ft_kill_rank();
    CHECK(name && victim >= 0 && victim < size, "set FT_KILL_AT=<collective> and FT_KILL_RANK");
    CHECK(size <= MAXP, "at most %d ranks", MAXP);
    MPI_Comm comm = ft_work_comm();

    int it, rc = MPI_SUCCESS;
    double t0 = 0;
    for (it = 0; it < ITERS; ++it) {
        if (it == KILL_ITER) {
            /* Everyone has finished the calls before the kill (a root may
             * otherwise run ahead and die while others are still in them). */
            ft_sync_before_kill(comm, victim);
            t0 = ft_now();
            ft_kill_self_at(name);
        }
        rc = run_one(comm, name, it, rank, size);
        if (it < KILL_ITER)
            CHECK(rc == MPI_SUCCESS, "%s it %d before the kill gave %s", name, it, error_class_name(rc));
        if (rc != MPI_SUCCESS) break;
    }
    CHECK(ft_ok_or_failed(rc), "%s gave %d (%s), expected a process-failure class", name, rc, error_class_name(rc));
    if (rc != MPI_SUCCESS)
        printf("rank %d: %s failed at iteration %d with %s after %.1f ms\n", rank, name, it, error_class_name(rc),
               (ft_now() - t0) * 1e3);
    else
        printf("rank %d: all %d %s calls succeeded (the dead rank was not needed here)\n", rank, ITERS, name);

    /* Recovery as in the chapter's example: the first to see the failure
     * revokes, so ranks still inside a later collective (waiting for one
     * that stopped) leave it with MPIX_ERR_REVOKED; then everyone agrees on
     * whether all succeeded, and shrinks. */
    if (error_class(rc) == MPIX_ERR_PROC_FAILED) CHECK_MPI(MPIX_Comm_revoke(comm));
    int flag = (rc == MPI_SUCCESS);
    int arc = MPIX_Comm_agree(comm, &flag);
    CHECK(error_class(arc) == MPI_SUCCESS || error_class(arc) == MPIX_ERR_PROC_FAILED, "agree gave %s",
          error_class_name(arc));
    CHECK(flag == 0, "agree said every survivor succeeded, but rank %d never contributed", victim);
    CHECK_MPI(MPIX_Comm_revoke(comm));
    MPI_Comm shrunk;
    CHECK_MPI(MPIX_Comm_shrink(comm, &shrunk));
    int nsize, nrank;
    MPI_Comm_size(shrunk, &nsize);
    MPI_Comm_rank(shrunk, &nrank);
    CHECK(nsize == size - 1, "shrunk size %d, expected %d", nsize, size - 1);
    CHECK(nrank == (rank < victim ? rank : rank - 1), "rank %d is %d after the shrink", rank, nrank);
    int one = 1, sum = 0;
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, shrunk));
    CHECK(sum == size - 1, "allreduce on the shrunk communicator gave %d", sum);
    MPI_Comm_free(&shrunk);
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
