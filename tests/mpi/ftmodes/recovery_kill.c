/* A failure during the recovery itself (SHRINK): rank 2 of
 * 5 SIGKILLs itself mid-loop; when the failure shows, rank 3 SIGKILLs itself
 * too, just as the others enter MPI_Comm_dup, so it dies while they
 * recover. The recovery restarts and ends with ranks 0, 1 and 4. */
#include "ftmodes.h"

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    CHECK(size == 5 && ft_kill_rank() == 2, "run with 5 ranks and FT_KILL_RANK=2");

    int iters = ftm_run_until_failure(MPI_COMM_WORLD, rank, 1000);
    CHECK(iters < 1000, "no failure seen");
    if (rank == 3) {
        printf("rank 3: killing myself as the recovery starts\n");
        ft_die();
    }
    MPI_Comm work = ftm_recover(MPI_COMM_WORLD);
    int n, r;
    MPI_Comm_size(work, &n);
    MPI_Comm_rank(work, &r);
    /* Rank 3 died before or during the first agreement (the recovery then
     * agrees again) or after it (the dup fails and ftm_recover's next dup
     * recovers): either way the dup that succeeds has 3 ranks. */
    CHECK(n == 3, "size %d after two failures", n);
    const int expect_rank = rank == 4 ? 2 : rank;
    CHECK(r == expect_rank, "rank %d, expected %d", r, expect_rank);
    int sum = 0;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, work));
    CHECK(sum == 0 + 1 + 4, "allreduce gave %d, expected 5", sum);
    printf("rank %d: recovered from a failure during the recovery (now %d of %d)\n", rank, r, n);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
