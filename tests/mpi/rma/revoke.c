/* MPIX_Win_revoke interrupting a fence: every rank but 0 enters
 * MPI_Win_fence, which cannot end without rank 0; rank 0 revokes the
 * window instead of joining. Every rank's fence returns MPIX_ERR_REVOKED,
 * later calls on the window too, nobody hangs; the user's communicator is
 * untouched and the window is freed locally. Then a lock request waiting
 * for a lock another rank holds is ended by that rank's revoke. */
#include "rma_test.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    int mem[4] = {0}, v = 1;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    rma_errors_return(win);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win));
    if (rank == 0) {
        int x;
        /* Every other rank is about to enter the fence. */
        for (int r = 1; r < size; ++r) MPI_Recv(&x, 1, MPI_INT, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_MPI(MPIX_Win_revoke(win));
        CHECK_CLASS(MPI_Win_fence(0, win), MPIX_ERR_REVOKED);
    } else {
        int x = 0;
        MPI_Send(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        CHECK_CLASS(MPI_Win_fence(0, win), MPIX_ERR_REVOKED);
    }
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPIX_ERR_REVOKED);
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPIX_ERR_REVOKED);
    MPI_Group failed;
    int n = -1;
    CHECK_MPI(MPIX_Win_get_failed(win, &failed));
    MPI_Group_size(failed, &n);
    CHECK(n == 0, "%d failed processes without a failure", n);
    MPI_Group_free(&failed);
    CHECK_CLASS(MPI_Win_free(&win), MPIX_ERR_REVOKED);
    CHECK(win == MPI_WIN_NULL, "free of a revoked window kept the handle");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. A lock request waiting behind another rank's exclusive lock ends
     * with the revoke of its holder (ranks 2.. wait for the lock rank 1
     * holds on rank 0; rank 1 revokes instead of unlocking). */
    if (size >= 3) {
        CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        rma_errors_return(win);
        int x = 0;
        if (rank == 1) CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* the lock is held */
        if (rank == 1) {
            for (int r = 2; r < size; ++r) MPI_Recv(&x, 1, MPI_INT, r, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK_MPI(MPIX_Win_revoke(win));
            CHECK_CLASS(MPI_Win_unlock(0, win), MPIX_ERR_REVOKED);
        } else if (rank >= 2) {
            MPI_Send(&x, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
            CHECK_CLASS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win), MPIX_ERR_REVOKED);
        }
        CHECK_CLASS(MPI_Win_fence(0, win), MPIX_ERR_REVOKED);
        CHECK_CLASS(MPI_Win_free(&win), MPIX_ERR_REVOKED);
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    }
    MPI_Finalize();
    return 0;
}
