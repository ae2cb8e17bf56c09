/* MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (MPI-4)
 * with groups of MPI_COMM_WORLD: the even ranks make a communicator, the
 * even and odd ranks an intercommunicator; the given error handler is the
 * new communicator's; wrong arguments give their classes. */
#include "support/check.h"

static int given_handler_calls = 0;
static void given_handler(MPI_Comm *comm, int *code, ...) {
    (void)comm;
    (void)code;
    ++given_handler_calls;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group world, even, odd;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{0, size - 1, 2}};
    CHECK_MPI(MPI_Group_range_incl(world, 1, range, &even));
    CHECK_MPI(MPI_Group_difference(world, even, &odd));
    MPI_Group mine = rank % 2 == 0 ? even : odd, other = rank % 2 == 0 ? odd : even;
    const int evens = (size + 1) / 2, odds = size / 2;

    /* Each parity its own communicator (one string tag, disjoint groups). */
    MPI_Comm half = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_create_from_group(mine, "org.ftmpi.test.half", MPI_INFO_NULL, MPI_ERRORS_RETURN, &half));
    int hsize = 0, hrank = -1, sum = 0;
    MPI_Comm_size(half, &hsize);
    MPI_Comm_rank(half, &hrank);
    CHECK(hsize == (rank % 2 == 0 ? evens : odds) && hrank == rank / 2, "half: size %d rank %d", hsize, hrank);
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half));
    const int want = rank % 2 == 0 ? (evens - 1) * evens : odds * odds; /* 0+2+4+… or 1+3+5+… */
    CHECK(sum == want, "sum over the half %d, expected %d", sum, want);
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(half, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "the new communicator has another error handler");
    MPI_Errhandler_free(&eh);

    /* The two halves joined, leaders their first ranks. */
    if (size >= 2) {
        MPI_Comm inter;
        CHECK_MPI(MPI_Intercomm_create_from_groups(mine, 0, other, 0, "org.ftmpi.test.inter", MPI_INFO_NULL,
                                                   MPI_ERRORS_RETURN, &inter));
        int flag = 0, rsize = 0, remote_sum = 0;
        MPI_Comm_test_inter(inter, &flag);
        MPI_Comm_remote_size(inter, &rsize);
        CHECK(flag && rsize == (rank % 2 == 0 ? odds : evens), "intercommunicator: inter %d remote size %d", flag,
              rsize);
        CHECK_MPI(MPI_Allreduce(&rank, &remote_sum, 1, MPI_INT, MPI_SUM, inter));
        const int want_remote = rank % 2 == 0 ? odds * odds : (evens - 1) * evens;
        CHECK(remote_sum == want_remote, "sum over the remote group %d, expected %d", remote_sum, want_remote);
        MPI_Comm_free(&inter);
    }

    /* Wrong arguments. */
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_CLASS(MPI_Comm_create_from_group(MPI_GROUP_NULL, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), MPI_ERR_GROUP);
    CHECK_CLASS(MPI_Comm_create_from_group(mine, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_create_from_group(mine, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Intercomm_create_from_groups(mine, 0, other, size, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
                MPI_ERR_RANK);
    CHECK(c == MPI_COMM_NULL, "a refused call set the communicator");
    /* The call's own errors go to the handler it was given (MPI_COMM_WORLD
     * is set to fatal here to show it is not the one used). */
    MPI_Errhandler given;
    CHECK_MPI(MPI_Comm_create_errhandler(given_handler, &given));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    int rc = MPI_Comm_create_from_group(mine, "t", MPI_INFO_NULL, given, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(rc != MPI_SUCCESS && given_handler_calls == 1, "the given handler: %d calls, code %d", given_handler_calls,
          rc);
    CHECK_MPI(MPI_Errhandler_free(&given));

    MPI_Comm_free(&half);
    MPI_Group_free(&even);
    MPI_Group_free(&odd);
    MPI_Group_free(&world);
    if (rank == 0) printf("create_from_group: %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
