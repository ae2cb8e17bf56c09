/*
 * Collectives on an intercommunicator (world split into even and odd ranks):
 * Barrier, Bcast, Allreduce, Reduce, Gather and Scatter, each direction, with
 * MPI_ROOT / MPI_PROC_NULL in the root's group. Needs at least 2 ranks.
 */
#include "check.h"

static int rank, size;

static int value(int group, int lrank, int i) {
    return group * 1000000 + lrank * 1000 + i + 1;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size < 2) {
        if (rank == 0) printf("intercomm: needs 2 ranks, skipped\n");
        MPI_Finalize();
        return 0;
    }
    const int group = rank % 2;
    MPI_Comm local, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, group, rank, &local));
    /* Leaders: world rank 0 (evens) and 1 (odds). */
    CHECK_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group == 0 ? 1 : 0, 7, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int lrank, lsize, rsize;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    enum { N = 6 };
    int buf[N], out[N];
    int *all = malloc(sizeof(int) * N * (size_t)(rsize > lsize ? rsize : lsize));

    CHECK_MPI(MPI_Barrier(inter));

    for (int from = 0; from < 2; ++from) {
        /* Bcast from lrank 0 of group `from` to the other group. */
        const int root_here = group == from && lrank == 0;
        const int root = group == from ? (root_here ? MPI_ROOT : MPI_PROC_NULL) : 0;
        for (int i = 0; i < N; ++i) buf[i] = root_here ? value(from, 0, i) : -1;
        CHECK_MPI(MPI_Bcast(buf, N, MPI_INT, root, inter));
        if (group != from)
            for (int i = 0; i < N; ++i) CHECK(buf[i] == value(from, 0, i), "inter Bcast [%d]=%d", i, buf[i]);

        /* Reduce: group `from`'s leader receives the sum of the other group. */
        for (int i = 0; i < N; ++i) buf[i] = value(group, lrank, i), out[i] = -1;
        CHECK_MPI(MPI_Reduce(buf, out, N, MPI_INT, MPI_SUM, root, inter));
        if (root_here)
            for (int i = 0; i < N; ++i) {
                int want = 0;
                for (int r = 0; r < rsize; ++r) want += value(1 - group, r, i);
                CHECK(out[i] == want, "inter Reduce [%d]=%d want %d", i, out[i], want);
            }

        /* Gather the other group's blocks at the leader, then scatter them back. */
        CHECK_MPI(MPI_Gather(buf, N, MPI_INT, all, N, MPI_INT, root, inter));
        if (root_here)
            for (int r = 0; r < rsize; ++r)
                for (int i = 0; i < N; ++i)
                    CHECK(all[r * N + i] == value(1 - group, r, i), "inter Gather %d [%d]", r, i);
        for (int i = 0; i < N; ++i) out[i] = -1;
        CHECK_MPI(MPI_Scatter(all, N, MPI_INT, out, N, MPI_INT, root, inter));
        if (group != from)
            for (int i = 0; i < N; ++i) CHECK(out[i] == value(group, lrank, i), "inter Scatter [%d]=%d", i, out[i]);
    }

    /* Allreduce: each group gets the other group's sum. */
    for (int i = 0; i < N; ++i) buf[i] = value(group, lrank, i);
    CHECK_MPI(MPI_Allreduce(buf, out, N, MPI_INT, MPI_SUM, inter));
    for (int i = 0; i < N; ++i) {
        int want = 0;
        for (int r = 0; r < rsize; ++r) want += value(1 - group, r, i);
        CHECK(out[i] == want, "inter Allreduce [%d]=%d want %d", i, out[i], want);
    }
    MPI_Request req;
    CHECK_MPI(MPI_Ibarrier(inter, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

    free(all);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("intercomm: %d ranks OK\n", size);
    MPI_Finalize();
    return 0;
}
