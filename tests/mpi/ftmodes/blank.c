/* BLANK: rank 2 of 5 SIGKILLs itself; after
 * MPI_Comm_dup(MPI_COMM_WORLD) recovers, the size stays 5 and rank 2 is a
 * gap: a send to it gives MPI_ERR_RANK, its group rank translates to
 * MPI_UNDEFINED, and collectives run over the live ranks. */
#include "ftmodes.h"

int main(int argc, char **argv) {
    int rank, size, iters;
    ft_init(&argc, &argv, &rank, &size);
    const int victim = ftm_lose_victim(rank, size, &iters);
    MPI_Comm made = ftm_recover(MPI_COMM_WORLD);
    /* A dup keeps the recovered world's shape, gaps included; a split makes
     * a communicator of the processes that called it, so it has no gap: the
     * gap checks then run on MPI_COMM_WORLD, recovered in place. */
    const char *with = getenv("FT_RECOVER_WITH");
    const int split = with && strcmp(with, "split") == 0;
    if (split) {
        int msize, mrank;
        MPI_Comm_size(made, &msize);
        MPI_Comm_rank(made, &mrank);
        CHECK(msize == size - 1 && mrank == (rank < victim ? rank : rank - 1), "split: rank %d of %d", mrank, msize);
    }
    MPI_Comm work = split ? MPI_COMM_WORLD : made;

    int nsize, nrank;
    MPI_Comm_size(work, &nsize);
    MPI_Comm_rank(work, &nrank);
    CHECK(nsize == size && nrank == rank, "new comm: rank %d of %d, expected %d of %d", nrank, nsize, rank, size);
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wsize == size, "world size %d after a BLANK recovery", wsize);

    int x = 1;
    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, victim, 0, work), MPI_ERR_RANK);
    MPI_Group g, wg;
    MPI_Comm_group(work, &g);
    MPI_Comm_group(MPI_COMM_SELF, &wg);
    int out = 0;
    CHECK_MPI(MPI_Group_translate_ranks(g, 1, &victim, wg, &out));
    CHECK(out == MPI_UNDEFINED, "the gap translated to %d", out);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* Point-to-point between live ranks: each sends to the next live rank. */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (next == victim) next = (next + 1) % size;
    if (prev == victim) prev = (prev + size - 1) % size;
    int from = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, next, 7, &from, 1, MPI_INT, prev, 7, work, MPI_STATUS_IGNORE));
    CHECK(from == prev, "ring got %d, expected %d", from, prev);

    int sum = -1, expect = size * (size - 1) / 2 - victim;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, work));
    CHECK(sum == expect, "allreduce over the live ranks gave %d, expected %d", sum, expect);
    CHECK_MPI(MPI_Barrier(work));
    printf("rank %d: blank ok after %d iterations\n", rank, iters);
    MPI_Comm_free(&made);
    MPI_Finalize();
    return 0;
}
