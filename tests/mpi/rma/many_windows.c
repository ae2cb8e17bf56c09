/* Many windows alive at once (MPICH's rma/window_creation keeps 500): each
 * has its target handler in the progress engine, and a handler's own p2p
 * calls must not run the others inside it (that nesting grew with every
 * window and never ended past a few dozen). Creation, a put through every
 * window in one fence epoch each, and freeing must stay quick. */
#include "rma_test.h"

#define WINDOWS 200

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    static MPI_Win wins[WINDOWS];
    static int mem[WINDOWS][2];
    static int *allocated[WINDOWS];
    for (int w = 0; w < WINDOWS; ++w) {
        if (w % 2 == 0) {
            CHECK_MPI(MPI_Win_create(mem[w], sizeof mem[w], sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &wins[w]));
        } else {
            CHECK_MPI(
                MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &allocated[w], &wins[w]));
        }
        rma_errors_return(wins[w]);
    }
    for (int w = 0; w < WINDOWS; ++w) {
        const int v = rank * 1000 + w;
        CHECK_MPI(MPI_Win_fence(0, wins[w]));
        CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, 1, 1, MPI_INT, wins[w]));
        CHECK_MPI(MPI_Win_fence(0, wins[w]));
        const int got = w % 2 == 0 ? mem[w][1] : allocated[w][1];
        CHECK(got == left * 1000 + w, "window %d holds %d", w, got);
    }
    for (int w = 0; w < WINDOWS; ++w) CHECK_MPI(MPI_Win_free(&wins[w]));
    MPI_Finalize();
    return 0;
}
