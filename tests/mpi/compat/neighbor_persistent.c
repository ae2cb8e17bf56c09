/* MPI-4 persistent neighbourhood collectives (MPI_Neighbor_*_init) on a
 * periodic ring (a one-dimensional Cartesian communicator: slot 0 is the
 * previous rank, slot 1 the next; on 1 and 2 ranks both are one process):
 * three rounds of MPI_Start/MPI_Wait each, the buffers changed between
 * rounds, every received block checked against what its sender put in the
 * slot meant for us. */
#include "support/check.h"

enum { ROUNDS = 3 };

/* The block a rank puts in its out-slot `slot` in round `round`. */
static int block(int rank, int slot, int round) {
    return 1000 * round + 100 * rank + slot;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm ring;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    MPI_Comm_rank(ring, &rank);
    int prev, next;
    CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &prev, &next));

    int mine = 0, out[2], gathered[2], gatheredv[2], in[2], inv[2], inw[2];
    const int ones[2] = {1, 1}, reversed[2] = {1, 0};
    const MPI_Aint bytes[2] = {0, sizeof(int)};
    const MPI_Datatype ints[2] = {MPI_INT, MPI_INT};
    MPI_Request reqs[5];
    CHECK_MPI(MPI_Neighbor_allgather_init(&mine, 1, MPI_INT, gathered, 1, MPI_INT, ring, MPI_INFO_NULL, &reqs[0]));
    CHECK_MPI(MPI_Neighbor_allgatherv_init(&mine, 1, MPI_INT, gatheredv, ones, reversed, MPI_INT, ring, MPI_INFO_NULL,
                                           &reqs[1]));
    CHECK_MPI(MPI_Neighbor_alltoall_init(out, 1, MPI_INT, in, 1, MPI_INT, ring, MPI_INFO_NULL, &reqs[2]));
    CHECK_MPI(MPI_Neighbor_alltoallv_init(out, ones, reversed, MPI_INT, inv, ones, reversed, MPI_INT, ring,
                                          MPI_INFO_NULL, &reqs[3]));
    CHECK_MPI(
        MPI_Neighbor_alltoallw_init(out, ones, bytes, ints, inw, ones, bytes, ints, ring, MPI_INFO_NULL, &reqs[4]));

    for (int round = 0; round < ROUNDS; ++round) {
        mine = 1000 * round + rank;
        for (int k = 0; k < 2; ++k) {
            out[k] = block(rank, k, round);
            gathered[k] = gatheredv[k] = in[k] = inv[k] = inw[k] = -7;
        }
        /* One at a time for the first round, all at once for the others. */
        if (round == 0) {
            for (int i = 0; i < 5; ++i) {
                CHECK_MPI(MPI_Start(&reqs[i]));
                CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
            }
        } else {
            CHECK_MPI(MPI_Startall(5, reqs));
            CHECK_MPI(MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE));
        }
        for (int i = 0; i < 5; ++i) CHECK(reqs[i] != MPI_REQUEST_NULL, "Wait freed persistent request %d", i);
        CHECK(gathered[0] == 1000 * round + prev && gathered[1] == 1000 * round + next,
              "round %d: allgather got %d %d (prev %d, next %d)", round, gathered[0], gathered[1], prev, next);
        /* allgatherv: slot 0 lands at displacement 1. */
        CHECK(gatheredv[1] == 1000 * round + prev && gatheredv[0] == 1000 * round + next,
              "round %d: allgatherv got %d %d", round, gatheredv[0], gatheredv[1]);
        /* Slot 0 (from prev) holds prev's slot 1, slot 1 (from next) next's slot 0. */
        CHECK(in[0] == block(prev, 1, round) && in[1] == block(next, 0, round), "round %d: alltoall got %d %d", round,
              in[0], in[1]);
        CHECK(inw[0] == block(prev, 1, round) && inw[1] == block(next, 0, round), "round %d: alltoallw got %d %d",
              round, inw[0], inw[1]);
        /* alltoallv: slot k is sent from out[1 - k] and lands at inv[1 - k]. */
        CHECK(inv[1] == block(prev, 0, round) && inv[0] == block(next, 1, round), "round %d: alltoallv got %d %d",
              round, inv[0], inv[1]);
    }
    for (int i = 0; i < 5; ++i) CHECK_MPI(MPI_Request_free(&reqs[i]));

    /* Wrong handles at init go through the communicator's error handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK_CLASS(MPI_Neighbor_alltoall_init(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_NULL, MPI_INFO_NULL, &r),
                MPI_ERR_COMM);
    CHECK_CLASS(MPI_Neighbor_allgather_init(out, 1, MPI_INT, in, 1, MPI_INT, ring, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    CHECK(r == MPI_REQUEST_NULL, "a refused init set the request");
    MPI_Comm_free(&ring);
    if (rank == 0) printf("neighbor_persistent: %d ranks, %d rounds of 5 collectives\n", size, ROUNDS);
    MPI_Finalize();
    return 0;
}
