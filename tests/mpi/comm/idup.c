/* MPI_Comm_idup does not block: a rank that starts an idup and then sends
 * lets a peer that receives first and only then calls idup finish (a
 * blocking dup would deadlock here). Several idups in flight on one
 * communicator, with blocking collectives on it in between, each give a
 * working communicator of its own, with the parent's attributes copied; the
 * same on an intercommunicator; MPI_Comm_idup_with_info keeps its hints. */
#include "support/check.h"

#include <string.h>

static int copies = 0;
static int count_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag) {
    (void)old, (void)key, (void)extra;
    ++copies;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static void check_works(MPI_Comm c, MPI_Comm parent, const char *what) {
    int size, parent_size, sum = 0, one = 1, result;
    CHECK(c != MPI_COMM_NULL, "%s: no communicator", what);
    CHECK_MPI(MPI_Comm_compare(c, parent, &result));
    CHECK(result == MPI_CONGRUENT, "%s: not congruent with its parent (%d)", what, result);
    CHECK_MPI(MPI_Comm_size(c, &size));
    CHECK_MPI(MPI_Comm_size(parent, &parent_size));
    CHECK(size == parent_size, "%s: size %d, parent %d", what, size, parent_size);
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c));
    CHECK(sum == size, "%s: allreduce gave %d", what, sum);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);

    /* 1. Start, then talk: rank 0 starts its idup and sends; every other
     * rank first receives from its predecessor, then starts its idup. */
    MPI_Comm a = MPI_COMM_NULL;
    MPI_Request r;
    int token = 42;
    if (rank == 0) {
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &a, &r));
        if (size > 1) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &a, &r));
        if (rank + 1 < size) CHECK_MPI(MPI_Send(&token, 1, MPI_INT, rank + 1, 0, MPI_COMM_WORLD));
    }
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    check_works(a, MPI_COMM_WORLD, "idup started before a send");

    /* 2. Two idups in flight, blocking collectives on the parent between
     * them, attributes copied by the keyval's callback. */
    int key, value = 7;
    CHECK_MPI(MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(a, key, &value));
    MPI_Comm b = MPI_COMM_NULL, c = MPI_COMM_NULL;
    MPI_Request two[2];
    CHECK_MPI(MPI_Comm_idup(a, &b, &two[0]));
    CHECK_MPI(MPI_Barrier(a));
    CHECK_MPI(MPI_Comm_idup(a, &c, &two[1]));
    int x = rank, max = -1;
    CHECK_MPI(MPI_Allreduce(&x, &max, 1, MPI_INT, MPI_MAX, a));
    CHECK(max == size - 1, "allreduce on the parent during idups: %d", max);
    CHECK_MPI(MPI_Waitall(2, two, MPI_STATUSES_IGNORE));
    check_works(b, a, "first of two idups");
    check_works(c, a, "second of two idups");
    CHECK(copies == 2, "attribute copy callback ran %d times, not 2", copies);
    int *got, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(c, key, &got, &flag));
    CHECK(flag && *got == 7, "attribute not copied to the idup'ed communicator");
    /* Messages on b and c do not mix. */
    if (size > 1) {
        int vb = -1, vc = -1, sb = 1, sc = 2;
        MPI_Request rr[2];
        int peer = (rank + 1) % size, from = (rank + size - 1) % size;
        CHECK_MPI(MPI_Irecv(&vc, 1, MPI_INT, from, 3, c, &rr[0]));
        CHECK_MPI(MPI_Irecv(&vb, 1, MPI_INT, from, 3, b, &rr[1]));
        CHECK_MPI(MPI_Send(&sb, 1, MPI_INT, peer, 3, b));
        CHECK_MPI(MPI_Send(&sc, 1, MPI_INT, peer, 3, c));
        CHECK_MPI(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE));
        CHECK(vb == 1 && vc == 2, "messages crossed between idup'ed communicators: b %d c %d", vb, vc);
    }

    /* 3. An intercommunicator (even and odd ranks). */
    if (size > 1) {
        MPI_Comm half, inter, inter_dup = MPI_COMM_NULL;
        CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
        CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 9, &inter));
        CHECK_MPI(MPI_Comm_idup(inter, &inter_dup, &r));
        CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        int remote, remote_dup;
        CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
        CHECK_MPI(MPI_Comm_remote_size(inter_dup, &remote_dup));
        CHECK(remote == remote_dup, "intercomm idup: remote size %d, parent's %d", remote_dup, remote);
        int mine = rank, theirs = -1;
        CHECK_MPI(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_MAX, inter_dup));
        int expect = rank % 2 ? (size - 1) / 2 * 2 : size % 2 ? size - 2 : size - 1;
        CHECK(theirs == expect, "intercomm idup allreduce gave %d, expected %d", theirs, expect);
        MPI_Comm_free(&inter_dup);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }

    /* 4. idup_with_info: the new communicator has the given hints. */
    MPI_Info info, used;
    MPI_Comm d = MPI_COMM_NULL;
    char hint[16];
    int len = sizeof hint;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &d, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_get_info(d, &used));
    CHECK_MPI(MPI_Info_get_string(used, "mpi_assert_no_any_tag", &len, hint, &flag));
    CHECK(flag && strcmp(hint, "true") == 0, "idup_with_info lost its hint");
    check_works(d, MPI_COMM_WORLD, "idup_with_info");
    MPI_Info_free(&used);
    MPI_Info_free(&info);

    MPI_Comm_free(&d);
    MPI_Comm_free(&c);
    MPI_Comm_free(&b);
    MPI_Comm_free(&a);
    MPI_Comm_free_keyval(&key);
    MPI_Finalize();
    return 0;
}
