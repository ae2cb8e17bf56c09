/* REBUILD_APPEND: rank FT_KILL_RANK of 4 SIGKILLs itself;
 * MPI_Comm_dup(MPI_COMM_WORLD) shrinks the survivors and appends the
 * replacement at the end. The replacement's MPI_Init returns
 * MPI_INIT_RESTARTED_NODE and its rank is the last one; an allreduce of the
 * original world ranks (a replacement keeps its FTMPI_RANK) is right. */
#include "ftmodes.h"

int main(int argc, char **argv) {
    int rc = MPI_Init(&argc, &argv);
    const int restarted = rc == MPI_INIT_RESTARTED_NODE;
    CHECK(rc == MPI_SUCCESS || restarted, "MPI_Init returned %d", rc);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const char *r = getenv("FTMPI_RANK");
    CHECK(r && *r, "FTMPI_RANK is not set");
    const int original = atoi(r), victim = ft_kill_rank(), size = 4;
    if (!restarted) {
        int iters = ftm_run_until_failure(MPI_COMM_WORLD, original, 1000);
        CHECK(iters < 1000, "no failure seen");
    }
    MPI_Comm work = ftm_recover(MPI_COMM_WORLD);
    int n, me, wme;
    MPI_Comm_size(work, &n);
    MPI_Comm_rank(work, &me);
    MPI_Comm_rank(MPI_COMM_WORLD, &wme);
    CHECK(n == size, "size %d after REBUILD_APPEND, expected %d", n, size);
    const int expect = restarted ? size - 1 : original < victim ? original : original - 1;
    CHECK(me == expect && wme == expect, "rank %d (world %d), expected %d", me, wme, expect);
    int sum = -1;
    CHECK_MPI(MPI_Allreduce(&original, &sum, 1, MPI_INT, MPI_SUM, work));
    CHECK(sum == size * (size - 1) / 2, "allreduce gave %d", sum);
    printf("rank %d: %s, now rank %d of %d\n", original, restarted ? "replacement appended" : "survivor", me, n);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
