/*
 * Non-blocking collectives overlapped with other traffic: several in flight
 * at once on one communicator, a blocking collective issued while they are
 * pending, and user point-to-point messages (including an ANY_SOURCE/ANY_TAG
 * receive, which must never match collective traffic) exchanged before they
 * are waited for. Completion both by MPI_Waitall and by polling MPI_Test.
 * Every result is checked.
 */
#include "check.h"

#include <string.h>

static int rank, size;

static int value(int r, int i) {
    return r * 100003 + i + 1;
}

/* A ring exchange on the user channel while collectives are pending. */
static void user_traffic(int round) {
    int token = value(rank, round), got = -1, any = -1;
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, next, 5, &got, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, &st));
    CHECK(got == value(prev, round), "ring token from %d: got %d", prev, got);
    /* A wildcard receive: only the user message may match it. */
    MPI_Request r;
    CHECK_MPI(MPI_Irecv(&any, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Send(&token, 1, MPI_INT, next, 9, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(any == value(prev, round) && st.MPI_TAG == 9 && st.MPI_SOURCE == prev,
          "wildcard receive matched something else: %d from %d tag %d", any, st.MPI_SOURCE, st.MPI_TAG);
}

static void overlapped(int n, int round) {
    int *bc = malloc(sizeof(int) * (size_t)(n + 1)), *sum_in = malloc(sizeof(int) * (size_t)(n + 1)),
        *sum_out = malloc(sizeof(int) * (size_t)(n + 1));
    int *ag = malloc(sizeof(int) * (size_t)(n * size + 1)), *mine = malloc(sizeof(int) * (size_t)(n + 1));
    int *a2a_out = malloc(sizeof(int) * (size_t)(n * size + 1)), *a2a_in = malloc(sizeof(int) * (size_t)(n * size + 1));
    const int root = round % size;
    for (int i = 0; i < n; ++i) {
        bc[i] = rank == root ? value(root, i) : -1;
        sum_in[i] = value(rank, i);
        mine[i] = value(rank, i);
    }
    for (int d = 0; d < size; ++d)
        for (int i = 0; i < n; ++i) a2a_out[d * n + i] = value(rank, d * n + i);

    MPI_Request req[5];
    CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Ibcast(bc, n, MPI_INT, root, MPI_COMM_WORLD, &req[1]));
    CHECK_MPI(MPI_Iallreduce(sum_in, sum_out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[2]));
    CHECK_MPI(MPI_Iallgather(mine, n, MPI_INT, ag, n, MPI_INT, MPI_COMM_WORLD, &req[3]));
    CHECK_MPI(MPI_Ialltoall(a2a_out, n, MPI_INT, a2a_in, n, MPI_INT, MPI_COMM_WORLD, &req[4]));

    user_traffic(round);
    /* A blocking collective while five non-blocking ones are pending. */
    int one = 1, count = 0;
    CHECK_MPI(MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(count == size, "blocking Allreduce among pending ones: %d", count);

    if (round % 2) {
        CHECK_MPI(MPI_Waitall(5, req, MPI_STATUSES_IGNORE));
    } else {
        int done = 0;
        while (!done) CHECK_MPI(MPI_Testall(5, req, &done, MPI_STATUSES_IGNORE));
    }

    for (int i = 0; i < n; ++i) {
        CHECK(bc[i] == value(root, i), "Ibcast n=%d [%d]=%d", n, i, bc[i]);
        long long want = 0;
        for (int r = 0; r < size; ++r) want += value(r, i);
        CHECK(sum_out[i] == (int)want, "Iallreduce n=%d [%d]=%d want %lld", n, i, sum_out[i], want);
    }
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < n; ++i) {
            CHECK(ag[r * n + i] == value(r, i), "Iallgather n=%d block %d [%d]", n, r, i);
            CHECK(a2a_in[r * n + i] == value(r, rank * n + i), "Ialltoall n=%d from %d [%d]", n, r, i);
        }
    free(bc);
    free(sum_in);
    free(sum_out);
    free(ag);
    free(mine);
    free(a2a_out);
    free(a2a_in);
}

/* The rooted and vector forms, each waited for on its own. */
static void rooted_and_vector(int n) {
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size), total = 0;
    for (int r = 0; r < size; ++r) {
        counts[r] = n + r % 2;
        displs[r] = total;
        total += counts[r];
    }
    int *mine = malloc(sizeof(int) * (size_t)(counts[rank] + 1)), *all = malloc(sizeof(int) * (size_t)(total + 1));
    MPI_Request req;
    for (int i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i);
    const int root = size - 1;

    CHECK_MPI(MPI_Igather(mine, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD, &req));
    user_traffic(1);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    if (rank == root)
        for (int r = 0; r < size; ++r)
            for (int i = 0; i < n; ++i) CHECK(all[r * n + i] == value(r, i), "Igather block %d [%d]", r, i);

    CHECK_MPI(MPI_Igatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    if (rank == root)
        for (int r = 0; r < size; ++r)
            for (int i = 0; i < counts[r]; ++i)
                CHECK(all[displs[r] + i] == value(r, i), "Igatherv block %d [%d]", r, i);

    for (int i = 0; i < counts[rank]; ++i) mine[i] = -1;
    CHECK_MPI(MPI_Iscatterv(all, counts, displs, MPI_INT, mine, counts[rank], MPI_INT, root, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < counts[rank]; ++i) CHECK(mine[i] == value(rank, i), "Iscatterv [%d]=%d", i, mine[i]);

    if (rank == root)
        for (int r = 0; r < size; ++r)
            for (int i = 0; i < n; ++i) all[r * n + i] = value(r, i);
    for (int i = 0; i < n; ++i) mine[i] = -1;
    CHECK_MPI(MPI_Iscatter(all, n, MPI_INT, mine, n, MPI_INT, root, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; ++i) CHECK(mine[i] == value(rank, i), "Iscatter [%d]=%d", i, mine[i]);

    for (int i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i);
    CHECK_MPI(MPI_Iallgatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < counts[r]; ++i) CHECK(all[displs[r] + i] == value(r, i), "Iallgatherv block %d [%d]", r, i);

    /* Ialltoallv/w with one element per peer and Ireduce_scatter(_block). */
    int *one = malloc(sizeof(int) * (size_t)size), *zero = malloc(sizeof(int) * (size_t)size);
    int *bytes = malloc(sizeof(int) * (size_t)size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)size);
    int *out = malloc(sizeof(int) * (size_t)size), *in = malloc(sizeof(int) * (size_t)size);
    for (int r = 0; r < size; ++r) {
        one[r] = 1;
        zero[r] = r;
        bytes[r] = r * (int)sizeof(int);
        types[r] = MPI_INT;
        out[r] = value(rank, r);
    }
    CHECK_MPI(MPI_Ialltoallv(out, one, zero, MPI_INT, in, one, zero, MPI_INT, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int r = 0; r < size; ++r) CHECK(in[r] == value(r, rank), "Ialltoallv from %d", r);
    CHECK_MPI(MPI_Ialltoallw(out, one, bytes, types, in, one, bytes, types, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int r = 0; r < size; ++r) CHECK(in[r] == value(r, rank), "Ialltoallw from %d", r);

    int block = -1;
    CHECK_MPI(MPI_Ireduce_scatter_block(out, &block, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    long long want = 0;
    for (int r = 0; r < size; ++r) want += value(r, rank);
    CHECK(block == (int)want, "Ireduce_scatter_block: %d want %lld", block, want);
    block = -1;
    CHECK_MPI(MPI_Ireduce_scatter(out, &block, one, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(block == (int)want, "Ireduce_scatter: %d want %lld", block, want);

    free(one);
    free(zero);
    free(bytes);
    free(types);
    free(out);
    free(in);
    free(counts);
    free(displs);
    free(mine);
    free(all);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    static const int sizes[] = {0, 1, 100, 20000};
    for (int round = 0; round < 8; ++round) overlapped(sizes[round % 4], round);
    for (int s = 0; s < 4; ++s) rooted_and_vector(sizes[s]);
    /* The same overlap with the log-round algorithms forced. */
    force_algorithm("ALLREDUCE", "rabenseifner");
    force_algorithm("ALLTOALL", "bruck");
    force_algorithm("BCAST", "pipeline:1024");
    for (int round = 8; round < 16; ++round) overlapped(sizes[round % 4], round);
    force_algorithm("ALLREDUCE", NULL);
    force_algorithm("ALLTOALL", NULL);
    force_algorithm("BCAST", NULL);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("nonblocking: %d ranks OK\n", size);
    MPI_Finalize();
    return 0;
}
