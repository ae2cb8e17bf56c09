/*
 * The data-movement collectives — Bcast, Gather(v), Scatter(v),
 * Allgather(v), Alltoall(v,w) — with every algorithm forced in turn
 * (force_algorithm, check.h; and the automatic choice), every root, sizes from zero
 * to past the algorithms' switch points, MPI_IN_PLACE, and a strided derived
 * type on one side against a contiguous type on the other. Every element is
 * checked: the value encodes (source rank, index), so a misplaced block is
 * named in the failure message.
 */
#include "check.h"

#include <string.h>

static int rank, size;

/* The value rank r contributes at index i (for destination d in alltoall). */
static int value(int r, int i) {
    return r * 1000003 + i * 7 + 1;
}
static int value3(int r, int d, int i) {
    return r * 1000003 + d * 10007 + i + 1;
}

static int *ints(size_t n) {
    return calloc(n > 0 ? n : 1, sizeof(int));
}

/* A vector type that takes every other int: [x . x . x .] -> n elements. */
static MPI_Datatype strided;

static void test_bcast(int n) {
    int *buf = ints((size_t)n * 2);
    for (int root = 0; root < size; ++root) {
        for (int i = 0; i < n; ++i) buf[i] = rank == root ? value(root, i) : -1;
        CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < n; ++i) CHECK(buf[i] == value(root, i), "Bcast n=%d root=%d [%d]=%d", n, root, i, buf[i]);
    }
    /* Strided at the root is the same stream as contiguous elsewhere. */
    for (int i = 0; i < 2 * n; ++i) buf[i] = rank == 0 ? (i % 2 ? -7 : value(0, i / 2)) : -1;
    if (rank == 0)
        CHECK_MPI(MPI_Bcast(buf, n, strided, 0, MPI_COMM_WORLD));
    else
        CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < n; ++i) {
        int got = rank == 0 ? buf[2 * i] : buf[i];
        CHECK(got == value(0, i), "Bcast(strided) n=%d [%d]=%d", n, i, got);
    }
    free(buf);
}

static void test_gather_scatter(int n) {
    int *mine = ints((size_t)n), *all = ints((size_t)n * size), *back = ints((size_t)n);
    for (int root = 0; root < size; ++root) {
        for (int i = 0; i < n; ++i) mine[i] = value(rank, i);
        memset(all, 0xff, sizeof(int) * (size_t)(n * size + (n == 0)));
        CHECK_MPI(MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD));
        if (rank == root)
            for (int r = 0; r < size; ++r)
                for (int i = 0; i < n; ++i)
                    CHECK(all[r * n + i] == value(r, i), "Gather n=%d root=%d block %d [%d]=%d", n, root, r, i,
                          all[r * n + i]);
        /* In place at the root: its block is already in recvbuf. */
        if (rank == root) {
            memset(all, 0xff, sizeof(int) * (size_t)(n * size + (n == 0)));
            memcpy(all + root * n, mine, sizeof(int) * (size_t)n);
        }
        CHECK_MPI(MPI_Gather(rank == root ? MPI_IN_PLACE : mine, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD));
        if (rank == root)
            for (int r = 0; r < size; ++r)
                for (int i = 0; i < n; ++i)
                    CHECK(all[r * n + i] == value(r, i), "Gather(IN_PLACE) n=%d root=%d block %d [%d]", n, root, r, i);

        /* Scatter it back (the root holds everyone's blocks only at the root). */
        if (rank != root)
            for (int r = 0; r < size; ++r)
                for (int i = 0; i < n; ++i) all[r * n + i] = -1;
        memset(back, 0, sizeof(int) * (size_t)(n + (n == 0)));
        CHECK_MPI(MPI_Scatter(all, n, MPI_INT, back, n, MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < n; ++i)
            CHECK(back[i] == value(rank, i), "Scatter n=%d root=%d [%d]=%d", n, root, i, back[i]);
        CHECK_MPI(MPI_Scatter(all, n, MPI_INT, rank == root ? MPI_IN_PLACE : back, n, MPI_INT, root, MPI_COMM_WORLD));
        if (rank != root)
            for (int i = 0; i < n; ++i)
                CHECK(back[i] == value(rank, i), "Scatter(IN_PLACE) n=%d root=%d [%d]", n, root, i);
    }
    free(mine);
    free(all);
    free(back);
}

/* Rank r has r % 3 + n elements; the root stores them in reverse rank order
 * with a gap of 2 between blocks. */
static void test_gatherv_scatterv(int n) {
    int *counts = ints((size_t)size), *displs = ints((size_t)size), total = 0;
    for (int r = size - 1; r >= 0; --r) {
        counts[r] = r % 3 + n;
        displs[r] = total;
        total += counts[r] + 2;
    }
    int *mine = ints((size_t)counts[rank]), *all = ints((size_t)total), *back = ints((size_t)counts[rank]);
    for (int i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i);
    for (int root = 0; root < size; ++root) {
        for (int i = 0; i < total; ++i) all[i] = -1;
        CHECK_MPI(MPI_Gatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD));
        if (rank == root)
            for (int r = 0; r < size; ++r)
                for (int i = 0; i < counts[r]; ++i)
                    CHECK(all[displs[r] + i] == value(r, i), "Gatherv n=%d root=%d block %d [%d]", n, root, r, i);
        for (int i = 0; i < counts[rank]; ++i) back[i] = -1;
        CHECK_MPI(MPI_Scatterv(all, counts, displs, MPI_INT, back, counts[rank], MPI_INT, root, MPI_COMM_WORLD));
        for (int i = 0; i < counts[rank]; ++i)
            CHECK(back[i] == value(rank, i), "Scatterv n=%d root=%d [%d]", n, root, i);
    }
    free(counts);
    free(displs);
    free(mine);
    free(all);
    free(back);
}

static void test_allgather(int n) {
    int *mine = ints((size_t)n * 2 + 3), *all = ints((size_t)n * size);
    for (int i = 0; i < n; ++i) mine[i] = value(rank, i);
    CHECK_MPI(MPI_Allgather(mine, n, MPI_INT, all, n, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < n; ++i)
            CHECK(all[r * n + i] == value(r, i), "Allgather n=%d block %d [%d]=%d", n, r, i, all[r * n + i]);
    for (int i = 0; i < n * size; ++i) all[i] = i / (n ? n : 1) == rank ? value(rank, i % n) : -1;
    CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, n, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < n; ++i)
            CHECK(all[r * n + i] == value(r, i), "Allgather(IN_PLACE) n=%d block %d [%d]", n, r, i);
    /* Strided send side. */
    for (int i = 0; i < 2 * n; ++i) mine[i] = i % 2 ? -7 : value(rank, i / 2);
    CHECK_MPI(MPI_Allgather(mine, n, strided, all, n, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < n; ++i)
            CHECK(all[r * n + i] == value(r, i), "Allgather(strided) n=%d block %d [%d]", n, r, i);

    int *counts = ints((size_t)size), *displs = ints((size_t)size), total = 0;
    for (int r = 0; r < size; ++r) {
        counts[r] = (r + 1) % 3 + n;
        displs[r] = total + 1;
        total += counts[r] + 1;
    }
    int *v = ints((size_t)total + 1);
    for (int i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i);
    CHECK_MPI(MPI_Allgatherv(mine, counts[rank], MPI_INT, v, counts, displs, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < counts[r]; ++i)
            CHECK(v[displs[r] + i] == value(r, i), "Allgatherv n=%d block %d [%d]", n, r, i);
    for (int i = 0; i <= total; ++i) v[i] = -1;
    for (int i = 0; i < counts[rank]; ++i) v[displs[rank] + i] = value(rank, i);
    CHECK_MPI(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, counts, displs, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < counts[r]; ++i)
            CHECK(v[displs[r] + i] == value(r, i), "Allgatherv(IN_PLACE) n=%d block %d [%d]", n, r, i);
    free(v);
    free(counts);
    free(displs);
    free(mine);
    free(all);
}

static void test_alltoall(int n) {
    int *out = ints((size_t)n * size), *in = ints((size_t)n * size);
    for (int d = 0; d < size; ++d)
        for (int i = 0; i < n; ++i) out[d * n + i] = value3(rank, d, i);
    CHECK_MPI(MPI_Alltoall(out, n, MPI_INT, in, n, MPI_INT, MPI_COMM_WORLD));
    for (int s = 0; s < size; ++s)
        for (int i = 0; i < n; ++i)
            CHECK(in[s * n + i] == value3(s, rank, i), "Alltoall n=%d from %d [%d]=%d", n, s, i, in[s * n + i]);
    CHECK_MPI(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, n, MPI_INT, MPI_COMM_WORLD));
    for (int s = 0; s < size; ++s)
        for (int i = 0; i < n; ++i)
            CHECK(out[s * n + i] == value3(s, rank, i), "Alltoall(IN_PLACE) n=%d from %d [%d]", n, s, i);
    /* A strided send type against contiguous receives: the same stream. */
    int *wide = ints((size_t)n * size * 2);
    for (int d = 0; d < size; ++d)
        for (int i = 0; i < n; ++i) wide[2 * (d * n + i)] = value3(rank, d, i);
    for (int i = 0; i < n * size; ++i) in[i] = -1;
    CHECK_MPI(MPI_Alltoall(wide, n, strided, in, n, MPI_INT, MPI_COMM_WORLD));
    for (int s = 0; s < size; ++s)
        for (int i = 0; i < n; ++i)
            CHECK(in[s * n + i] == value3(s, rank, i), "Alltoall(strided) n=%d from %d [%d]=%d", n, s, i,
                  in[s * n + i]);
    free(wide);

    /* Alltoallv: rank s sends (s + d) % 3 + n elements to d, blocks reversed. */
    int *sc = ints((size_t)size), *sd = ints((size_t)size), *rc = ints((size_t)size), *rd = ints((size_t)size);
    int stotal = 0, rtotal = 0;
    for (int d = size - 1; d >= 0; --d) {
        sc[d] = (rank + d) % 3 + n;
        sd[d] = stotal;
        stotal += sc[d];
    }
    for (int s = 0; s < size; ++s) {
        rc[s] = (s + rank) % 3 + n;
        rd[s] = rtotal;
        rtotal += rc[s];
    }
    int *vout = ints((size_t)stotal), *vin = ints((size_t)rtotal);
    for (int d = 0; d < size; ++d)
        for (int i = 0; i < sc[d]; ++i) vout[sd[d] + i] = value3(rank, d, i);
    CHECK_MPI(MPI_Alltoallv(vout, sc, sd, MPI_INT, vin, rc, rd, MPI_INT, MPI_COMM_WORLD));
    for (int s = 0; s < size; ++s)
        for (int i = 0; i < rc[s]; ++i)
            CHECK(vin[rd[s] + i] == value3(s, rank, i), "Alltoallv n=%d from %d [%d]", n, s, i);

    /* Alltoallw: the same exchange, receive displacements in bytes, and the
     * block for rank 0 sent with the strided type from a spread-out copy. */
    int *spread = ints((size_t)stotal * 2);
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)size), *rt = malloc(sizeof(MPI_Datatype) * (size_t)size);
    int *sdw = ints((size_t)size), *rdw = ints((size_t)size);
    for (int d = 0; d < size; ++d) {
        st[d] = d == 0 ? strided : MPI_INT;
        sdw[d] = (int)sizeof(int) * 2 * sd[d]; /* each block has room for 2 * sc[d] ints */
        for (int i = 0; i < sc[d]; ++i) spread[2 * sd[d] + (d == 0 ? 2 * i : i)] = value3(rank, d, i);
    }
    for (int s = 0; s < size; ++s) {
        rt[s] = MPI_INT;
        rdw[s] = (int)sizeof(int) * rd[s];
    }
    for (int i = 0; i < rtotal; ++i) vin[i] = -1;
    CHECK_MPI(MPI_Alltoallw(spread, sc, sdw, st, vin, rc, rdw, rt, MPI_COMM_WORLD));
    for (int s = 0; s < size; ++s)
        for (int i = 0; i < rc[s]; ++i)
            CHECK(vin[rd[s] + i] == value3(s, rank, i), "Alltoallw n=%d from %d [%d]", n, s, i);
    free(spread);
    free(st);
    free(rt);
    free(sdw);
    free(rdw);
    free(vout);
    free(vin);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(out);
    free(in);
}

static void test_gathers(int n) {
    test_gather_scatter(n);
    test_gatherv_scatterv(n);
}

static const struct {
    const char *collective;
    void (*test)(int n);
    const char *algorithms[4];
} choices[] = {
    {"BCAST", test_bcast, {"binomial", "pipeline", "pipeline:4096", NULL}},
    {"GATHER", test_gathers, {"binomial", "linear", NULL}},
    {"SCATTER", test_gathers, {"binomial", "linear", NULL}},
    {"ALLGATHER", test_allgather, {"ring", "bruck", NULL}},
    {"ALLTOALL", test_alltoall, {"linear", "pairwise", "bruck", NULL}},
};
#define NCHOICES ((int)(sizeof choices / sizeof choices[0]))

/* 0 and 1 element, a non-power-of-two, and past every size threshold
 * (gather/allgather/alltoall switch at 8-32 KiB, bcast at 256 KiB). */
static const int sizes[] = {0, 1, 13, 9000, 70000};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_vector(1, 1, 2, MPI_INT, &strided);
    MPI_Datatype resized;
    MPI_Type_create_resized(strided, 0, 2 * sizeof(int), &resized);
    MPI_Type_free(&strided);
    strided = resized;
    MPI_Type_commit(&strided);

    for (int c = 0; c < NCHOICES; ++c)
        for (int a = -1; a < 0 || choices[c].algorithms[a]; ++a) {
            /* a = -1: the automatic choice. */
            force_algorithm(choices[c].collective, a < 0 ? NULL : choices[c].algorithms[a]);
            for (int k = 0; k < NSIZES; ++k) {
                /* Gather and scatter run once per root: smaller at the top size. */
                int n = sizes[k] > 9000 && choices[c].test == test_gathers ? 30000 : sizes[k];
                choices[c].test(n);
            }
            force_algorithm(choices[c].collective, NULL);
        }

    MPI_Type_free(&strided);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("movement: %d ranks OK\n", size);
    MPI_Finalize();
    return 0;
}
