/* SHRINK: rank 2 of 5 SIGKILLs itself mid-loop; the
 * survivors see the allreduce fail, MPI_Comm_dup(MPI_COMM_WORLD) recovers:
 * MPI_COMM_WORLD and the new comm have 4 ranks, renumbered in order, and an
 * allreduce over the new comm adds the survivors' original ranks. */
#include "ftmodes.h"

int main(int argc, char **argv) {
    int rank, size, iters;
    ft_init(&argc, &argv, &rank, &size);
    const int victim = ftm_lose_victim(rank, size, &iters);
    MPI_Comm work = ftm_recover(MPI_COMM_WORLD);

    int wsize, wrank, nsize, nrank;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(work, &nsize);
    MPI_Comm_rank(work, &nrank);
    const int expect_rank = rank < victim ? rank : rank - 1;
    CHECK(wsize == size - 1 && nsize == size - 1, "sizes world %d new %d, expected %d", wsize, nsize, size - 1);
    CHECK(wrank == expect_rank && nrank == expect_rank, "ranks world %d new %d, expected %d", wrank, nrank,
          expect_rank);

    int sum = -1, expect = size * (size - 1) / 2 - victim;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, work));
    CHECK(sum == expect, "allreduce over the recovered comm gave %d, expected %d", sum, expect);
    /* Point-to-point over the renumbered world: a ring. */
    int from = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (wrank + 1) % wsize, 7, &from, 1, MPI_INT, (wrank + wsize - 1) % wsize, 7,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    const int left = (wrank + wsize - 1) % wsize;
    CHECK(from == (left < victim ? left : left + 1), "ring got %d from new rank %d", from, left);
    printf("rank %d: shrink ok after %d iterations (now rank %d of %d)\n", rank, iters, wrank, wsize);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
