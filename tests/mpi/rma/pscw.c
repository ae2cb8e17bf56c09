/* General active target: each rank exposes its window to its left
 * neighbour (post/wait) and accesses its right neighbour (start/complete);
 * a second round uses MPI_Win_test until the exposure epoch ends. */
#include "rma_test.h"

static MPI_Group single(int rank) {
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &rank, &g);
    MPI_Group_free(&world);
    return g;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int mem[4] = {-1, -1, -1, -1};
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    rma_errors_return(win);
    MPI_Group from = single(left), to = single(right);

    for (int round = 0; round < 2; ++round) {
        CHECK_MPI(MPI_Win_post(from, 0, win));
        CHECK_MPI(MPI_Win_start(to, 0, win));
        int v = rank * 10 + round, got = -1;
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, round, 1, MPI_INT, win));
        CHECK_MPI(MPI_Get(&got, 1, MPI_INT, right, 3, 1, MPI_INT, win));
        CHECK_MPI(MPI_Win_complete(win));
        CHECK(got == (round == 0 ? -1 : right * 10), "got %d from %d in round %d", got, right, round);
        if (round == 0) {
            CHECK_MPI(MPI_Win_wait(win));
        } else {
            int flag = 0;
            while (!flag) CHECK_MPI(MPI_Win_test(win, &flag));
        }
        CHECK(mem[round] == left * 10 + round, "mem[%d] = %d", round, mem[round]);
        mem[3] = rank * 10; /* read by the left neighbour in the next round */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    /* Misuse: complete without start, wait without post. */
    CHECK_CLASS(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
    CHECK_CLASS(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
    MPI_Group_free(&from);
    MPI_Group_free(&to);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
