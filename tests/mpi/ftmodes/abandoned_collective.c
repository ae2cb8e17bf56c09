/* A collective that waits only on live members, who leave it for the
 * recovery: rank 1 dies; ranks 0 and 3 see it (their receive from rank 1
 * fails) and go on to MPI_Comm_dup, the recovery point; rank 2 is in an
 * MPI_Allreduce over MPI_COMM_WORLD whose recursive doubling (forced by
 * the test's FTMPI_COLL_ALLREDUCE) exchanges with ranks 3 and 0 only, who
 * never enter it. In NOP message mode the failure must end that allreduce
 * with an error at rank 2 too, or rank 2 waits for ever and the others wait
 * for it in the recovery. Then all three recover and sum again. */
#include "ftmodes.h"

int main(int argc, char **argv) {
    int rank = 0, size = 0;
    ft_init(&argc, &argv, &rank, &size);
    CHECK(size == 4, "run with 4 ranks");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 1) ft_die();
    if (rank == 2) {
        int mine = 2, sum = 0;
        int rc = MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(error_class(rc) == ft_failure_class(MPI_COMM_WORLD), "the abandoned allreduce gave %s",
              error_class_name(rc));
    } else {
        int x = 0;
        int rc = MPI_Recv(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(error_class(rc) == ft_failure_class(MPI_COMM_WORLD), "the receive from rank 1 gave %s",
              error_class_name(rc));
    }
    MPI_Comm work = ftm_recover(MPI_COMM_WORLD);
    int wsize = 0, mine = 1, sum = 0;
    MPI_Comm_size(work, &wsize);
    CHECK(wsize == 3, "the recovered communicator has %d ranks, not 3", wsize);
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, work));
    CHECK(sum == 3, "the sum over the survivors is %d, not 3", sum);
    printf("rank %d: recovered, %d survivors\n", rank, sum);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
