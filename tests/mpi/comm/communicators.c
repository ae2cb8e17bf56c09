/* Communicator constructors: dup (congruent, separate message space), split
 * (colors, keys, MPI_UNDEFINED), split_type SHARED, create, create_group,
 * compare, names, free; bad arguments return errors. */
#include "support/check.h"

#include <string.h>

static int comm_size(MPI_Comm c) {
    int n;
    CHECK_MPI(MPI_Comm_size(c, &n));
    return n;
}
static int comm_rank(MPI_Comm c) {
    int r;
    CHECK_MPI(MPI_Comm_rank(c, &r));
    return r;
}

/* Every rank sends its rank to the next on c and checks what it gets. */
static void ring_check(MPI_Comm c, int tag) {
    int n = comm_size(c), r = comm_rank(c), got = -1;
    CHECK_MPI(
        MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, tag, &got, 1, MPI_INT, (r + n - 1) % n, tag, c, MPI_STATUS_IGNORE));
    CHECK(got == (r + n - 1) % n, "ring on a communicator: got %d from %d", got, (r + n - 1) % n);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* Names of the predefined communicators, and set/get. */
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    CHECK(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world's name '%s'", name);
    CHECK_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    CHECK(strcmp(name, "MPI_COMM_SELF") == 0, "self's name '%s'", name);

    /* dup: congruent, same ranks, and its messages never match world's. */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int cmp;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "compare(world, dup) = %d", cmp);
    CHECK_MPI(MPI_Comm_compare(dup, dup, &cmp));
    CHECK(cmp == MPI_IDENT, "compare(dup, dup) = %d", cmp);
    CHECK(comm_rank(dup) == rank && comm_size(dup) == size, "dup changed rank/size");
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(len == 0, "a dup inherits no name, got '%s'", name);
    CHECK_MPI(MPI_Comm_set_name(dup, "my dup"));
    CHECK_MPI(MPI_Comm_get_name(dup, name, &len));
    CHECK(strcmp(name, "my dup") == 0 && len == 6, "dup's name '%s'", name);
    if (size > 1) {
        /* Same tag and peers on both: each receive must get its own communicator's message. */
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        int a = 100 + rank, b = 200 + rank, ga = -1, gb = -1;
        MPI_Request r[4];
        CHECK_MPI(MPI_Irecv(&gb, 1, MPI_INT, from, 7, dup, &r[0]));
        CHECK_MPI(MPI_Irecv(&ga, 1, MPI_INT, from, 7, MPI_COMM_WORLD, &r[1]));
        CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, to, 7, MPI_COMM_WORLD, &r[2]));
        CHECK_MPI(MPI_Isend(&b, 1, MPI_INT, to, 7, dup, &r[3]));
        CHECK_MPI(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
        CHECK(ga == 100 + from && gb == 200 + from, "dup and world messages crossed: %d %d", ga, gb);
    }

    /* split: two colors, keys reverse the order; color UNDEFINED for the last rank. */
    MPI_Comm half;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half));
    int expected = 0;
    for (int r = rank + 2; r < size; r += 2) ++expected; /* higher ranks of my color come first */
    CHECK(comm_rank(half) == expected, "split rank %d, expected %d", comm_rank(half), expected);
    CHECK(comm_size(half) == (rank % 2 == 0 ? (size + 1) / 2 : size / 2), "split size %d", comm_size(half));
    ring_check(half, 3);
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, half, &cmp));
    CHECK(cmp == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "compare(world, half) = %d", cmp);

    MPI_Comm some;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == size - 1 ? MPI_UNDEFINED : 0, 0, &some));
    if (rank == size - 1) {
        CHECK(some == MPI_COMM_NULL, "MPI_UNDEFINED color gave a communicator");
    } else {
        CHECK(comm_size(some) == size - 1, "split without the last: size %d", comm_size(some));
        ring_check(some, 4);
        CHECK_MPI(MPI_Comm_free(&some));
    }

    /* split_type SHARED: every rank of this job runs on this host. */
    MPI_Comm node;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    CHECK(comm_size(node) == size && comm_rank(node) == rank, "shared split: %d of %d", comm_rank(node),
          comm_size(node));
    MPI_Comm nothing;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &nothing));
    CHECK(nothing == MPI_COMM_NULL, "split_type UNDEFINED gave a communicator");

    /* create: the first half of world (at least one rank). */
    MPI_Group world_group, first_group;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    int first_range[1][3] = {{0, (size - 1) / 2, 1}};
    CHECK_MPI(MPI_Group_range_incl(world_group, 1, first_range, &first_group));
    MPI_Comm first;
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, first_group, &first));
    if (rank <= (size - 1) / 2) {
        CHECK(first != MPI_COMM_NULL && comm_size(first) == (size - 1) / 2 + 1, "create: wrong communicator");
        ring_check(first, 5);
    } else {
        CHECK(first == MPI_COMM_NULL, "create gave a communicator to a non-member");
    }

    /* create_group: only the odd ranks call it. */
    MPI_Group odd_group;
    int odd_range[1][3] = {{1, size - 1, 2}};
    if (size > 1) {
        CHECK_MPI(MPI_Group_range_incl(world_group, 1, odd_range, &odd_group));
        if (rank % 2 == 1) {
            MPI_Comm odd;
            CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, odd_group, 42, &odd));
            CHECK(comm_size(odd) == size / 2 && comm_rank(odd) == rank / 2, "create_group: %d of %d", comm_rank(odd),
                  comm_size(odd));
            ring_check(odd, 6);
            CHECK_MPI(MPI_Comm_free(&odd));
        }
        CHECK_MPI(MPI_Group_free(&odd_group));
    }

    /* A dup of a split: the dup is congruent to it, not to world. */
    MPI_Comm half_dup;
    CHECK_MPI(MPI_Comm_dup(half, &half_dup));
    CHECK_MPI(MPI_Comm_compare(half, half_dup, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "compare(half, dup of half) = %d", cmp);
    ring_check(half_dup, 8);

    int flag;
    CHECK_MPI(MPI_Comm_test_inter(dup, &flag));
    CHECK(flag == 0, "an intracommunicator claims to be inter");

    /* Errors: freeing world, bad color, null/freed communicators, create with a foreign group. */
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_Comm_free(&w), MPI_ERR_COMM);
    MPI_Comm bad;
    CHECK_CLASS(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &bad), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_size(MPI_COMM_NULL, &len), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_dup(MPI_COMM_NULL, &bad), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_remote_size(dup, &len), MPI_ERR_COMM);
    MPI_Comm freed = dup;
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(dup == MPI_COMM_NULL, "Comm_free did not reset the handle");
    CHECK_CLASS(MPI_Comm_rank(freed, &len), MPI_ERR_COMM);
    if (size > 1) {
        /* half's group is not a subgroup of SELF. */
        MPI_Group half_group;
        CHECK_MPI(MPI_Comm_group(half, &half_group));
        if (comm_size(half) > 1) CHECK_CLASS(MPI_Comm_create(MPI_COMM_SELF, half_group, &bad), MPI_ERR_GROUP);
        CHECK_MPI(MPI_Group_free(&half_group));
    }

    CHECK_MPI(MPI_Comm_free(&half_dup));
    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&node));
    if (first != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&first));
    CHECK_MPI(MPI_Group_free(&first_group));
    CHECK_MPI(MPI_Group_free(&world_group));
    MPI_Finalize();
    return 0;
}
