/* Failures one after another until one rank is left:
 * each round, every rank of the current communicator adds its number with
 * an allreduce; one rank (chosen from a printed seed) kills itself during
 * the round; the survivors see the error, revoke, agree and shrink, check
 * the shrunk size, and go on. The last rank standing checks it is alone
 * and that every round's sum was right when it succeeded. */
#include "inject.h"

enum { STEPS = 4 };

int main(int argc, char **argv) {
    int wrank, wsize;
    ft_init(&argc, &argv, &wrank, &wsize);
    ft_seed();
    MPI_Comm comm;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);

    int size = wsize, recoveries = 0, members[64]; /* world rank of each rank of comm */
    CHECK(wsize <= 64, "at most 64 ranks");
    for (int i = 0; i < wsize; ++i) members[i] = i;
    while (size > 1) {
        int rank;
        MPI_Comm_rank(comm, &rank);
        /* Same draw everywhere: the victim (a rank of comm) and the step it dies at. */
        int victim = ft_random(size), at_step = ft_random(STEPS);
        if (rank == 0) printf("round with %d ranks: rank %d of them dies at step %d\n", size, victim, at_step);
        int rc = MPI_SUCCESS, want = 0;
        for (int i = 0; i < size; ++i) want += members[i] + 1;
        for (int step = 0; step < STEPS && rc == MPI_SUCCESS; ++step) {
            if (rank == victim && step == at_step) ft_die();
            int sum = 0, mine = wrank + 1;
            rc = MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm);
            /* Success means every member contributed. */
            CHECK(rc != MPI_SUCCESS || sum == want, "allreduce gave %d, expected %d", sum, want);
        }
        CHECK(ft_ok_or_failed(rc), "allreduce gave %s", error_class_name(rc));
        if (error_class(rc) == MPIX_ERR_PROC_FAILED) MPIX_Comm_revoke(comm);
        int flag = (rc == MPI_SUCCESS);
        int arc = MPIX_Comm_agree(comm, &flag);
        CHECK(error_class(arc) == MPI_SUCCESS || error_class(arc) == MPIX_ERR_PROC_FAILED, "agree gave %s",
              error_class_name(arc));
        CHECK(!flag, "the round with a dead rank succeeded everywhere");
        MPI_Comm next;
        CHECK_MPI(MPIX_Comm_revoke(comm));
        CHECK_MPI(MPIX_Comm_shrink(comm, &next));
        MPI_Comm_free(&comm);
        comm = next;
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        int nsize;
        MPI_Comm_size(comm, &nsize);
        CHECK(nsize == size - 1, "shrink left %d ranks of %d", nsize, size);
        for (int i = victim; i + 1 < size; ++i) members[i] = members[i + 1]; /* shrink keeps the order */
        size = nsize;
        ++recoveries;
    }
    CHECK(recoveries == wsize - 1, "%d recoveries for %d ranks", recoveries, wsize);
    printf("world rank %d is the last one standing after %d failures\n", wrank, recoveries);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
