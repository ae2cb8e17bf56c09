/* MPI_Comm_split and MPI_Comm_create on an intercommunicator: world split
 * into evens and odds joined by MPI_Intercomm_create, then
 *  - split by (side rank % 2) with the key reversing the order: each new
 *    intercommunicator's local and remote groups hold the members of one
 *    colour, ordered by key, and carry messages across;
 *  - a colour only one side uses gives MPI_COMM_NULL;
 *  - MPI_UNDEFINED gives MPI_COMM_NULL;
 *  - MPI_Comm_create with each side's first two members;
 *  - an invalid colour fails on both sides with MPI_ERR_ARG, nobody waits.
 * Needs at least 2 ranks. */
#include "support/check.h"

/* World rank of member `i` of a side (0 evens, 1 odds). */
static int world_of(int side, int i) {
    return 2 * i + side;
}

/* Checks that `group`'s members are, in order, the world ranks `expect`. */
static void check_group(MPI_Group group, const int *expect, int n, const char *what) {
    MPI_Group world_group;
    int size;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    CHECK_MPI(MPI_Group_size(group, &size));
    CHECK(size == n, "%s: size %d, expected %d", what, size, n);
    for (int i = 0; i < n; ++i) {
        int w;
        CHECK_MPI(MPI_Group_translate_ranks(group, 1, &i, world_group, &w));
        CHECK(w == expect[i], "%s: member %d is world %d, expected %d", what, i, w, expect[i]);
    }
    MPI_Group_free(&world_group);
}

/* The leaders of the two groups of `ic` swap a token: the intercommunicator
 * carries messages. */
static void check_leaders_talk(MPI_Comm ic, int token, int expect, const char *what) {
    int rank;
    MPI_Comm_rank(ic, &rank);
    if (rank != 0) return;
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, 0, 7, &got, 1, MPI_INT, 0, 7, ic, MPI_STATUS_IGNORE));
    CHECK(got == expect, "%s: leaders' exchange got %d, expected %d", what, got, expect);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size >= 2, "needs at least 2 ranks");

    const int side = rank % 2;
    const int counts[2] = {(size + 1) / 2, size / 2};
    MPI_Comm half, inter;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, rank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, side == 0 ? 1 : 0, 41, &inter));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int me;
    MPI_Comm_rank(inter, &me);

    /* 1. Colour = side rank % 2, key = -side rank (reverse order). */
    const int color = me % 2;
    MPI_Comm split;
    CHECK_MPI(MPI_Comm_split(inter, color, -me, &split));
    int members[2][64], n[2] = {0, 0};
    for (int s = 0; s < 2; ++s)
        for (int i = counts[s] - 1; i >= 0; --i)
            if (i % 2 == color) members[s][n[s]++] = world_of(s, i);
    if (n[1 - side] == 0) {
        CHECK(split == MPI_COMM_NULL, "colour %d has no remote member, yet the split gave a communicator", color);
    } else {
        CHECK(split != MPI_COMM_NULL, "colour %d: the split gave MPI_COMM_NULL", color);
        int flag;
        CHECK_MPI(MPI_Comm_test_inter(split, &flag));
        CHECK(flag == 1, "the split of an intercommunicator is not an intercommunicator");
        MPI_Group local, remote;
        CHECK_MPI(MPI_Comm_group(split, &local));
        CHECK_MPI(MPI_Comm_remote_group(split, &remote));
        check_group(local, members[side], n[side], "split local group");
        check_group(remote, members[1 - side], n[1 - side], "split remote group");
        int srank;
        MPI_Comm_rank(split, &srank);
        CHECK(members[side][srank] == rank, "split rank %d is not world %d", srank, rank);
        check_leaders_talk(split, 100 * side + color, 100 * (1 - side) + color, "split");
        /* A collective over the new intercommunicator. */
        int sum = 0, one = 1;
        CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, split));
        CHECK(sum == n[1 - side], "allreduce over the split gave %d, expected %d", sum, n[1 - side]);
        MPI_Group_free(&local);
        MPI_Group_free(&remote);
        CHECK_MPI(MPI_Comm_free(&split));
    }

    /* 2. Only the evens' side uses colour 5; the odds pass MPI_UNDEFINED. */
    MPI_Comm lonely;
    CHECK_MPI(MPI_Comm_split(inter, side == 0 ? 5 : MPI_UNDEFINED, 0, &lonely));
    CHECK(lonely == MPI_COMM_NULL, "a colour of one side only gave a communicator");

    /* 3. MPI_Comm_create with each side's first two members. */
    MPI_Group local_group, firsts;
    CHECK_MPI(MPI_Comm_group(inter, &local_group));
    int want = counts[side] < 2 ? counts[side] : 2;
    int ranks[2] = {0, 1};
    CHECK_MPI(MPI_Group_incl(local_group, want, ranks, &firsts));
    MPI_Comm created;
    CHECK_MPI(MPI_Comm_create(inter, firsts, &created));
    if (me >= want) {
        CHECK(created == MPI_COMM_NULL, "a non-member got a communicator from MPI_Comm_create");
    } else {
        CHECK(created != MPI_COMM_NULL, "a member got MPI_COMM_NULL from MPI_Comm_create");
        int rsize, csize, crank;
        CHECK_MPI(MPI_Comm_remote_size(created, &rsize));
        MPI_Comm_size(created, &csize);
        MPI_Comm_rank(created, &crank);
        const int other = counts[1 - side] < 2 ? counts[1 - side] : 2;
        CHECK(rsize == other && csize == want && crank == me, "created: size %d remote %d rank %d", csize, rsize,
              crank);
        check_leaders_talk(created, 10 + side, 10 + (1 - side), "create");
        CHECK_MPI(MPI_Comm_free(&created));
    }
    MPI_Group_free(&firsts);
    MPI_Group_free(&local_group);

    /* 4. One process passes an invalid colour: both sides fail alike. */
    MPI_Comm bad = MPI_COMM_NULL;
    int err = MPI_Comm_split(inter, rank == size - 1 ? -7 : 0, 0, &bad);
    CHECK_CLASS(err, MPI_ERR_ARG);
    CHECK(bad == MPI_COMM_NULL, "a failed split wrote a communicator");

    /* The intercommunicator still works after all this. */
    check_leaders_talk(inter, side, 1 - side, "the parent intercommunicator");
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&half));
    MPI_Finalize();
    return 0;
}
