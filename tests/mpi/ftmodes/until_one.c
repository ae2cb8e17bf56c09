/* SHRINK, failures one after another until one rank is
 * left: each round the last rank of the current world SIGKILLs itself, the
 * survivors see the allreduce fail, recover with MPI_Comm_dup and check the
 * new size and an allreduce of their original ranks. */
#include "ftmodes.h"

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    MPI_Comm work;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &work));
    for (int alive = size; alive > 1; --alive) {
        int r;
        MPI_Comm_rank(work, &r);
        if (r == alive - 1) {
            printf("rank %d: killing myself with %d alive\n", rank, alive);
            ft_die();
        }
        /* Every survivor sees it in some allreduce (the victim's part is missing). */
        int sum = 0, rc = MPI_SUCCESS;
        for (int i = 0; i < 1000 && rc == MPI_SUCCESS; ++i) rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, work);
        CHECK(rc == MPI_ERR_OTHER, "allreduce with %d alive gave %s", alive, error_class_name(rc));
        MPI_Comm_free(&work);
        work = ftm_recover(MPI_COMM_WORLD);
        int n, wn;
        MPI_Comm_size(work, &n);
        MPI_Comm_size(MPI_COMM_WORLD, &wn);
        CHECK(n == alive - 1 && wn == alive - 1, "after a failure with %d alive: sizes %d and %d", alive, n, wn);
        /* The survivors are the original ranks 0 .. alive-2. The next
         * victim dies as soon as this allreduce returns at its end, and a
         * survivor may then lose its last message (p2p applies a failure
         * ahead of frames not yet processed): MPI_ERR_OTHER here means the
         * next round has begun, which the next loop sees again. */
        const int expect = (alive - 1) * (alive - 2) / 2;
        rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, work);
        CHECK(rc == MPI_SUCCESS || (alive - 1 > 1 && rc == MPI_ERR_OTHER), "allreduce with %d left gave %s", alive - 1,
              error_class_name(rc));
        CHECK(rc != MPI_SUCCESS || sum == expect, "allreduce with %d left gave %d, expected %d", alive - 1, sum,
              expect);
    }
    CHECK(rank == 0, "rank %d is the last one", rank);
    printf("rank %d: alone at the end, as expected\n", rank);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
