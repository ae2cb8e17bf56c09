/* Active target with MPI_Win_fence: every rank puts into its right
 * neighbour, gets from its left one, and accumulates (MPI_SUM, MPI_MAX,
 * MPI_REPLACE, MPI_NO_OP through Get_accumulate) into rank 0; results are
 * checked after each fence. Also the window's attributes, name and group
 * on both MPI_Win_create (user memory) and MPI_Win_allocate. */
#include "rma_test.h"

#define N 8

static void check_attributes(MPI_Win win, void *base, MPI_Aint bytes, int unit, int flavor) {
    void *b = NULL;
    MPI_Aint *s = NULL;
    int *u = NULL, *f = NULL, *m = NULL, flag = 0;
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag));
    CHECK(flag && b == base, "MPI_WIN_BASE %p, expected %p", b, base);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &s, &flag));
    CHECK(flag && *s == bytes, "MPI_WIN_SIZE %ld", (long)*s);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &u, &flag));
    CHECK(flag && *u == unit, "MPI_WIN_DISP_UNIT %d", *u);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &f, &flag));
    CHECK(flag && *f == flavor, "MPI_WIN_CREATE_FLAVOR %d", *f);
    CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &m, &flag));
    CHECK(flag && *m == MPI_WIN_UNIFIED, "MPI_WIN_MODEL %d", *m);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* User memory: put to the right, get from the left. */
    int mem[2 * N];
    for (int i = 0; i < 2 * N; ++i) mem[i] = -1;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    rma_errors_return(win);
    check_attributes(win, mem, sizeof mem, sizeof(int), MPI_WIN_FLAVOR_CREATE);
    CHECK_MPI(MPI_Win_set_name(win, "fence window"));
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    CHECK_MPI(MPI_Win_get_name(win, name, &len));
    CHECK(strcmp(name, "fence window") == 0 && len == 12, "name '%s'", name);
    MPI_Group g, wg;
    int cmp;
    CHECK_MPI(MPI_Win_get_group(win, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT, "window group differs from the world's (%d)", cmp);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    int out[N], in[N];
    for (int i = 0; i < N; ++i) out[i] = rank * 100 + i;
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; ++i) mem[N + i] = rank * 1000 + i; /* local stores before the epoch of gets */
    CHECK_MPI(MPI_Put(out, N, MPI_INT, right, 0, N, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; ++i) CHECK(mem[i] == left * 100 + i, "mem[%d] = %d after put", i, mem[i]);
    CHECK_MPI(MPI_Get(in, N, MPI_INT, left, N, N, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < N; ++i) CHECK(in[i] == left * 1000 + i, "in[%d] = %d after get", i, in[i]);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(win == MPI_WIN_NULL, "MPI_Win_free left the handle");

    /* Library memory: accumulates into rank 0. */
    long *acc = NULL;
    CHECK_MPI(MPI_Win_allocate(4 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &acc, &win));
    rma_errors_return(win);
    check_attributes(win, acc, 4 * sizeof(long), sizeof(long), MPI_WIN_FLAVOR_ALLOCATE);
    for (int i = 0; i < 4; ++i) acc[i] = 0;
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    long one = rank + 1, mine = rank, fetched = -1;
    CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_SUM, win));
    CHECK_MPI(MPI_Accumulate(&mine, 1, MPI_LONG, 0, 1, 1, MPI_LONG, MPI_MAX, win));
    if (rank == size - 1) CHECK_MPI(MPI_Accumulate(&mine, 1, MPI_LONG, 0, 2, 1, MPI_LONG, MPI_REPLACE, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0) {
        CHECK(acc[0] == (long)size * (size + 1) / 2, "sum %ld", acc[0]);
        CHECK(acc[1] == size - 1, "max %ld", acc[1]);
        CHECK(acc[2] == size - 1, "replace %ld", acc[2]);
    }
    CHECK_MPI(MPI_Get_accumulate(NULL, 0, MPI_LONG, &fetched, 1, MPI_LONG, 0, 0, 1, MPI_LONG, MPI_NO_OP, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(fetched == (long)size * (size + 1) / 2, "MPI_NO_OP fetched %ld", fetched);
    CHECK_MPI(MPI_Win_free(&win));

    /* Large transfers (past any eager limit: rendezvous both ways). */
    enum { BIG = 1 << 18 };
    int *big = NULL, *src = malloc(BIG * sizeof(int)), *dst = malloc(BIG * sizeof(int));
    CHECK_MPI(MPI_Win_allocate(BIG * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &big, &win));
    rma_errors_return(win);
    for (int i = 0; i < BIG; ++i) src[i] = rank ^ i;
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(src, BIG, MPI_INT, right, 0, BIG, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get(dst, BIG, MPI_INT, right, 0, BIG, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < BIG; ++i) {
        CHECK(big[i] == (left ^ i), "big[%d] = %d after a large put", i, big[i]);
        CHECK(dst[i] == (rank ^ i), "dst[%d] = %d after a large get", i, dst[i]);
    }
    free(src);
    free(dst);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
