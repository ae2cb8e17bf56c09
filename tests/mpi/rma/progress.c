/* Passive target progresses without the target calling MPI: the last rank
 * computes in a loop with no MPI call until a flag in its own window turns
 * non-zero, and every other rank locks it, puts, reads back, accumulates
 * and sets the flag. Without progress at the target the flag never changes
 * and the loop ends at its deadline (the test fails). Then the same while
 * the target waits in MPI_Barrier. */
#include "rma_test.h"

#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    CHECK(size >= 2, "needs 2 ranks or more");
    const int target = size - 1;
    long *mem = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(64 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    rma_errors_return(win);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    if (rank == target) {
        /* Compute without MPI until every origin set its flag (slots 32..). */
        const double deadline = now() + 10.0;
        volatile double sink = 0;
        int done = 0;
        while (!done && now() < deadline) {
            for (int i = 0; i < 10000; ++i) sink += i * 0.5;
            done = 1;
            for (int r = 0; r < size - 1; ++r)
                if (__atomic_load_n(&mem[32 + r], __ATOMIC_ACQUIRE) == 0) done = 0;
        }
        CHECK(done, "origins' flags never arrived while the target computed (no passive progress)");
        for (int r = 0; r < size - 1; ++r) CHECK(mem[r] == 1000 + r, "slot %d = %ld", r, mem[r]);
        CHECK(mem[40] == size - 1, "accumulated %ld", mem[40]);
    } else {
        long v = 1000 + rank, back = -1, one = 1, flag = 1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, target, rank, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(target, win));
        CHECK_MPI(MPI_Get(&back, 1, MPI_LONG, target, rank, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, target, 40, 1, MPI_LONG, MPI_SUM, win));
        CHECK_MPI(MPI_Win_unlock(target, win));
        CHECK(back == v, "read back %ld", back);
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
        CHECK_MPI(MPI_Put(&flag, 1, MPI_LONG, target, 32 + rank, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_unlock(target, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* The target waits in a barrier the origins enter only after their epoch. */
    if (rank != target) {
        long v = 2000 + rank, back = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, target, 16 + rank, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(target, win));
        CHECK_MPI(MPI_Get(&back, 1, MPI_LONG, target, 16 + rank, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_unlock(target, win));
        CHECK(back == v, "read back %ld in the barrier phase", back);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == target)
        for (int r = 0; r < size - 1; ++r) CHECK(mem[16 + r] == 2000 + r, "slot %d = %ld", 16 + r, mem[16 + r]);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
