/* MPI-4 persistent collectives: each *_init request started several times
 * (MPI_Start, MPI_Startall), with the inputs changed between rounds, then
 * freed; and two started in different orders at different ranks, which
 * still match in the order of their init calls. */
#include "support/check.h"

#include <stdlib.h>

/* A bcast and a barrier, initialised in that order everywhere; rank 0
 * starts the bcast first, the others the barrier first. */
static void started_out_of_init_order(int rank) {
    int value = -1;
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Bcast_init(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]));
    CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]));
    for (int round = 1; round <= 3; ++round) {
        if (rank == 0) value = 40 + round;
        CHECK_MPI(MPI_Start(&reqs[rank == 0 ? 0 : 1]));
        CHECK_MPI(MPI_Start(&reqs[rank == 0 ? 1 : 0]));
        CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
        CHECK(value == 40 + round, "round %d: bcast started after the barrier gave %d", round, value);
    }
    CHECK_MPI(MPI_Request_free(&reqs[0]));
    CHECK_MPI(MPI_Request_free(&reqs[1]));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int root = size - 1;

    int bval = 0, sum_in = 0, sum_out = 0, red_out = 0, scan_out = 0, exscan_out = 0;
    int *gathered = calloc((size_t)size, sizeof(int)), *all = calloc((size_t)size, sizeof(int));
    int *a2a_in = calloc((size_t)size, sizeof(int)), *a2a_out = calloc((size_t)size, sizeof(int));
    int *rsb_in = calloc((size_t)size, sizeof(int)), rsb_out = 0, scat_out = -1;
    int *counts = calloc((size_t)size, sizeof(int)), *displs = calloc((size_t)size, sizeof(int));
    int *gv = calloc((size_t)size, sizeof(int));
    for (int i = 0; i < size; ++i) {
        counts[i] = 1;
        displs[i] = size - 1 - i; /* reversed placement */
    }
    enum { N = 11 };
    MPI_Request reqs[N];
    CHECK_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]));
    CHECK_MPI(MPI_Bcast_init(&bval, 1, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]));
    CHECK_MPI(MPI_Allreduce_init(&sum_in, &sum_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[2]));
    CHECK_MPI(MPI_Reduce_init(&sum_in, &red_out, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[3]));
    CHECK_MPI(
        MPI_Gather_init(&sum_in, 1, MPI_INT, gathered, 1, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[4]));
    CHECK_MPI(MPI_Allgather_init(&sum_in, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[5]));
    CHECK_MPI(MPI_Alltoall_init(a2a_in, 1, MPI_INT, a2a_out, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[6]));
    CHECK_MPI(MPI_Scan_init(&sum_in, &scan_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[7]));
    CHECK_MPI(MPI_Exscan_init(&sum_in, &exscan_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[8]));
    CHECK_MPI(
        MPI_Reduce_scatter_block_init(rsb_in, &rsb_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[9]));
    CHECK_MPI(MPI_Allgatherv_init(&sum_in, 1, MPI_INT, gv, counts, displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                                  &reqs[10]));
    MPI_Request scatter;
    int *scat_in = calloc((size_t)size, sizeof(int));
    CHECK_MPI(MPI_Scatter_init(scat_in, 1, MPI_INT, &scat_out, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &scatter));

    /* Inactive: Wait returns at once with an empty status. */
    MPI_Status st;
    CHECK_MPI(MPI_Wait(&reqs[2], &st));
    CHECK(reqs[2] != MPI_REQUEST_NULL, "Wait freed an inactive persistent collective");

    for (int round = 0; round < 4; ++round) {
        bval = rank == root ? 1000 + round : -1;
        sum_in = rank + round;
        for (int i = 0; i < size; ++i) {
            a2a_in[i] = rank * 100 + i + round;
            rsb_in[i] = i + round;
            scat_in[i] = rank == 0 ? 7 * i + round : -1;
        }
        CHECK_MPI(MPI_Startall(N, reqs));
        CHECK_MPI(MPI_Start(&scatter));
        CHECK_MPI(MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE));
        CHECK_MPI(MPI_Wait(&scatter, MPI_STATUS_IGNORE));
        for (int i = 0; i < N; ++i) CHECK(reqs[i] != MPI_REQUEST_NULL, "Waitall freed persistent request %d", i);
        CHECK(bval == 1000 + round, "round %d: Bcast %d", round, bval);
        const int total = size * (size - 1) / 2 + size * round;
        CHECK(sum_out == total, "round %d: Allreduce %d, expected %d", round, sum_out, total);
        if (rank == 0) CHECK(red_out == size - 1 + round, "round %d: Reduce MAX %d", round, red_out);
        if (rank == root)
            for (int i = 0; i < size; ++i)
                CHECK(gathered[i] == i + round, "round %d: Gather[%d] %d", round, i, gathered[i]);
        for (int i = 0; i < size; ++i) {
            CHECK(all[i] == i + round, "round %d: Allgather[%d] %d", round, i, all[i]);
            CHECK(a2a_out[i] == i * 100 + rank + round, "round %d: Alltoall[%d] %d", round, i, a2a_out[i]);
            CHECK(gv[size - 1 - i] == i + round, "round %d: Allgatherv", round);
        }
        CHECK(scan_out == rank * (rank + 1) / 2 + (rank + 1) * round, "round %d: Scan %d", round, scan_out);
        if (rank > 0)
            CHECK(exscan_out == rank * (rank - 1) / 2 + rank * round, "round %d: Exscan %d", round, exscan_out);
        CHECK(rsb_out == size * (rank + round), "round %d: Reduce_scatter_block %d", round, rsb_out);
        CHECK(scat_out == 7 * rank + round, "round %d: Scatter %d", round, scat_out);
    }
    for (int i = 0; i < N; ++i) CHECK_MPI(MPI_Request_free(&reqs[i]));
    CHECK_MPI(MPI_Request_free(&scatter));
    CHECK(reqs[0] == MPI_REQUEST_NULL, "Request_free did not reset the handle");

    /* Errors found at init go through the communicator's handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    started_out_of_init_order(rank);
    CHECK_CLASS(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &reqs[0]), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Bcast_init(&bval, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    MPI_Finalize();
    free(gathered);
    free(all);
    free(a2a_in);
    free(a2a_out);
    free(rsb_in);
    free(counts);
    free(displs);
    free(gv);
    free(scat_in);
    return 0;
}
