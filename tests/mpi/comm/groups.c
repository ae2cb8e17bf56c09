/* Group algebra: queries, incl/excl/ranges, union/intersection/difference
 * (with the order the standard prescribes), compare, translate_ranks, and
 * errors for bad ranks under MPI_ERRORS_RETURN. */
#include "support/check.h"

static int group_size(MPI_Group g) {
    int n = -1;
    CHECK_MPI(MPI_Group_size(g, &n));
    return n;
}

/* Translates every rank of g into world ranks, so orders can be compared. */
static void world_ranks(MPI_Group g, MPI_Group world, int *out) {
    int n = group_size(g), in[64];
    for (int i = 0; i < n; ++i) in[i] = i;
    CHECK_MPI(MPI_Group_translate_ranks(g, n, in, world, out));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Group world;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
    CHECK(group_size(world) == size, "world group size %d", group_size(world));
    int grank;
    CHECK_MPI(MPI_Group_rank(world, &grank));
    CHECK(grank == rank, "world group rank %d", grank);

    /* Reversed order: incl keeps the order given. */
    int rev[64], w[64];
    for (int i = 0; i < size; ++i) rev[i] = size - 1 - i;
    MPI_Group reversed;
    CHECK_MPI(MPI_Group_incl(world, size, rev, &reversed));
    world_ranks(reversed, world, w);
    for (int i = 0; i < size; ++i) CHECK(w[i] == size - 1 - i, "reversed[%d] = %d", i, w[i]);
    CHECK_MPI(MPI_Group_rank(reversed, &grank));
    CHECK(grank == size - 1 - rank, "rank in reversed group %d", grank);
    int cmp;
    CHECK_MPI(MPI_Group_compare(world, reversed, &cmp));
    CHECK(cmp == (size == 1 ? MPI_IDENT : MPI_SIMILAR), "compare world/reversed = %d", cmp);
    CHECK_MPI(MPI_Group_compare(world, world, &cmp));
    CHECK(cmp == MPI_IDENT, "compare world/world = %d", cmp);

    /* Evens by range_incl, odds by range_excl of the evens' ranges. */
    int ranges[1][3] = {{0, size - 1, 2}};
    MPI_Group evens, odds;
    CHECK_MPI(MPI_Group_range_incl(world, 1, ranges, &evens));
    CHECK_MPI(MPI_Group_range_excl(world, 1, ranges, &odds));
    CHECK(group_size(evens) == (size + 1) / 2, "evens size %d", group_size(evens));
    CHECK(group_size(odds) == size / 2, "odds size %d", group_size(odds));
    world_ranks(odds, world, w);
    for (int i = 0; i < size / 2; ++i) CHECK(w[i] == 2 * i + 1, "odds[%d] = %d", i, w[i]);
    CHECK_MPI(MPI_Group_rank(evens, &grank));
    CHECK(grank == (rank % 2 == 0 ? rank / 2 : MPI_UNDEFINED), "rank in evens %d", grank);

    /* A descending range with a negative stride. */
    int down[1][3] = {{size - 1, 0, -1}};
    MPI_Group down_group;
    CHECK_MPI(MPI_Group_range_incl(world, 1, down, &down_group));
    CHECK_MPI(MPI_Group_compare(down_group, reversed, &cmp));
    CHECK(cmp == MPI_IDENT, "descending range differs from reversed incl: %d", cmp);

    /* union(odds, evens): odds first in their order, then the evens. */
    MPI_Group u, inter, diff;
    CHECK_MPI(MPI_Group_union(odds, evens, &u));
    CHECK(group_size(u) == size, "union size %d", group_size(u));
    world_ranks(u, world, w);
    for (int i = 0; i < size / 2; ++i) CHECK(w[i] == 2 * i + 1, "union[%d] = %d", i, w[i]);
    for (int i = 0; i < (size + 1) / 2; ++i)
        CHECK(w[size / 2 + i] == 2 * i, "union[%d] = %d", size / 2 + i, w[size / 2 + i]);
    CHECK_MPI(MPI_Group_intersection(world, odds, &inter));
    CHECK_MPI(MPI_Group_compare(inter, odds, &cmp));
    CHECK(cmp == MPI_IDENT, "world ∩ odds != odds (%d)", cmp);
    CHECK_MPI(MPI_Group_difference(world, odds, &diff));
    CHECK_MPI(MPI_Group_compare(diff, evens, &cmp));
    CHECK(cmp == MPI_IDENT, "world - odds != evens (%d)", cmp);
    MPI_Group none;
    CHECK_MPI(MPI_Group_intersection(odds, evens, &none));
    CHECK(group_size(none) == 0, "odds ∩ evens not empty");
    CHECK_MPI(MPI_Group_compare(none, MPI_GROUP_EMPTY, &cmp));
    CHECK(cmp == MPI_IDENT, "empty intersection is not MPI_GROUP_EMPTY-like (%d)", cmp);

    /* excl of everything but me: a group of one where I am rank 0. */
    int others[64], n = 0;
    for (int i = 0; i < size; ++i)
        if (i != rank) others[n++] = i;
    MPI_Group me;
    CHECK_MPI(MPI_Group_excl(world, n, others, &me));
    CHECK(group_size(me) == 1, "excl left %d", group_size(me));
    CHECK_MPI(MPI_Group_rank(me, &grank));
    CHECK(grank == 0, "my rank in {me} = %d", grank);

    /* translate: ranks absent from the target are MPI_UNDEFINED, PROC_NULL stays. */
    int from[2] = {0, MPI_PROC_NULL}, to[2];
    CHECK_MPI(MPI_Group_translate_ranks(world, 2, from, odds, to));
    CHECK(to[0] == MPI_UNDEFINED && to[1] == MPI_PROC_NULL, "translate gave %d %d", to[0], to[1]);

    /* Errors: out-of-range and duplicate ranks, bad ranges, null group. */
    int bad[2] = {size, 0};
    MPI_Group g;
    CHECK_CLASS(MPI_Group_incl(world, 1, bad, &g), MPI_ERR_RANK);
    int dup2[2] = {0, 0};
    CHECK_CLASS(MPI_Group_incl(world, 2, dup2, &g), MPI_ERR_RANK);
    int bad_range[1][3] = {{0, size, 1}};
    CHECK_CLASS(MPI_Group_range_incl(world, 1, bad_range, &g), MPI_ERR_RANK);
    int zero_stride[1][3] = {{0, 0, 0}};
    CHECK_CLASS(MPI_Group_range_excl(world, 1, zero_stride, &g), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Group_translate_ranks(world, 1, bad, world, to), MPI_ERR_RANK);

    MPI_Group all[] = {world, reversed, evens, odds, down_group, u, inter, diff, none, me};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; ++i) {
        CHECK_MPI(MPI_Group_free(&all[i]));
        CHECK(all[i] == MPI_GROUP_NULL, "Group_free did not reset the handle");
    }
    /* A freed handle is refused, not a crash. */
    CHECK_CLASS(MPI_Group_size(reversed, &n), MPI_ERR_GROUP);
    /* So is a live handle of another kind cast to a group, and a group
     * cast to a communicator (MPICH's errors/group/gerr). */
    int one_rank[1] = {0};
    CHECK_CLASS(MPI_Group_incl((MPI_Group)MPI_COMM_WORLD, 1, one_rank, &g), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Group_size((MPI_Group)MPI_ERRORS_RETURN, &n), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Comm_size((MPI_Comm)world, &n), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Info_set((MPI_Info)world, "key", "value"), MPI_ERR_INFO);

    MPI_Finalize();
    return 0;
}
