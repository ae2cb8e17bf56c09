/* Intercommunicators: world split into evens and odds, joined by
 * MPI_Intercomm_create through world, messages across in both directions,
 * a dup of the intercommunicator, and MPI_Intercomm_merge with either side
 * high. Needs at least 2 ranks. */
#include "support/check.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size >= 2, "needs at least 2 ranks");

    const int color = rank % 2; /* 0: evens, 1: odds */
    MPI_Comm side;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, rank, &side));
    int side_rank, side_size;
    MPI_Comm_rank(side, &side_rank);
    MPI_Comm_size(side, &side_size);

    /* Leaders: world rank 0 for the evens, world rank 1 for the odds. */
    MPI_Comm inter;
    CHECK_MPI(MPI_Intercomm_create(side, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 99, &inter));
    int flag, remote_size, irank, isize;
    CHECK_MPI(MPI_Comm_test_inter(inter, &flag));
    CHECK(flag == 1, "Intercomm_create gave an intracommunicator");
    CHECK_MPI(MPI_Comm_remote_size(inter, &remote_size));
    const int evens = (size + 1) / 2, odds = size / 2;
    CHECK(remote_size == (color == 0 ? odds : evens), "remote size %d", remote_size);
    MPI_Comm_rank(inter, &irank);
    MPI_Comm_size(inter, &isize);
    CHECK(irank == side_rank && isize == side_size, "intercomm rank/size %d/%d", irank, isize);

    /* The remote group is the other side's world ranks, in order. */
    MPI_Group remote, world_group;
    CHECK_MPI(MPI_Comm_remote_group(inter, &remote));
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    for (int i = 0; i < remote_size; ++i) {
        int w;
        CHECK_MPI(MPI_Group_translate_ranks(remote, 1, &i, world_group, &w));
        CHECK(w == 2 * i + (1 - color), "remote rank %d is world %d", i, w);
    }

    /* Every rank sends to remote rank (my rank mod remote size); receivers
     * take from every sender that targets them, with the status source in
     * the remote group's numbering. */
    const int payload = 1000 + rank;
    MPI_Request req;
    CHECK_MPI(MPI_Isend(&payload, 1, MPI_INT, side_rank % remote_size, 5, inter, &req));
    for (int src = 0; src < remote_size; ++src) {
        if (src % side_size != side_rank) continue;
        int got = -1;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, src, 5, inter, &st));
        CHECK(st.MPI_SOURCE == src, "status source %d, expected %d", st.MPI_SOURCE, src);
        CHECK(got == 1000 + 2 * src + (1 - color), "got %d from remote %d", got, src);
    }
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

    /* A dup of the intercommunicator carries messages too. */
    MPI_Comm inter2;
    CHECK_MPI(MPI_Comm_dup(inter, &inter2));
    CHECK_MPI(MPI_Comm_test_inter(inter2, &flag));
    CHECK(flag == 1, "dup of an intercomm is not inter");
    int cmp;
    CHECK_MPI(MPI_Comm_compare(inter, inter2, &cmp));
    CHECK(cmp == MPI_CONGRUENT, "compare(inter, dup) = %d", cmp);
    if (side_rank == 0) {
        int token = color, got = -1;
        CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, 0, 6, &got, 1, MPI_INT, 0, 6, inter2, MPI_STATUS_IGNORE));
        CHECK(got == 1 - color, "leaders' exchange on the dup got %d", got);
    }

    /* Merge with the odds low: the odds come first. */
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(inter, color == 0, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK(msize == size, "merged size %d", msize);
    CHECK(mrank == (color == 1 ? side_rank : odds + side_rank), "merged rank %d (evens high)", mrank);
    /* A ring over the merged communicator. */
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&mrank, 1, MPI_INT, (mrank + 1) % msize, 9, &got, 1, MPI_INT, (mrank + msize - 1) % msize, 9,
                           merged, MPI_STATUS_IGNORE));
    CHECK(got == (mrank + msize - 1) % msize, "ring on merged got %d", got);

    /* And the other way round: evens low. */
    MPI_Comm merged2;
    CHECK_MPI(MPI_Intercomm_merge(inter2, color == 1, &merged2));
    MPI_Comm_rank(merged2, &mrank);
    CHECK(mrank == (color == 0 ? side_rank : evens + side_rank), "merged rank %d (odds high)", mrank);

    /* Errors: merge of an intracommunicator, bad leader. */
    MPI_Comm bad;
    CHECK_CLASS(MPI_Intercomm_merge(side, 0, &bad), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Intercomm_create(side, side_size, MPI_COMM_WORLD, 0, 1, &bad), MPI_ERR_RANK);

    CHECK_MPI(MPI_Comm_free(&merged2));
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_free(&inter2));
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Group_free(&remote));
    CHECK_MPI(MPI_Group_free(&world_group));
    CHECK_MPI(MPI_Comm_free(&side));
    MPI_Finalize();
    return 0;
}
