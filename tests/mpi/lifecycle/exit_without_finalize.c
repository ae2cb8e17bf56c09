/* A rank that ends by exit() after MPI_Init and without MPI_Finalize is a
 * process failure in the fault-tolerant comm modes, whatever its status:
 * FT_KILL_RANK calls exit(FT_EXIT_STATUS) once every rank is past MPI_Init;
 * the survivors see the failure in the next allreduce (MPIX_ERR_PROC_FAILED;
 * MPI_ERR_OTHER in the FT-MPI modes), recover
 * (ULFM: revoke + MPIX_Comm_shrink; FT-MPI modes: MPI_Comm_dup) and finish
 * an allreduce over the survivors. ftmpirun keeps the job, says what
 * happened and ends with the rank's status (expect.sh checks that). */
#include "ftmodes.h"

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    const int victim = ft_kill_rank();
    CHECK(victim >= 0 && victim < size, "FT_KILL_RANK must name a rank");
    const char *status_text = getenv("FT_EXIT_STATUS");
    const int status = status_text && *status_text ? atoi(status_text) : 1;

    ft_sync_before_kill(MPI_COMM_WORLD, victim);
    if (rank == victim) {
        printf("rank %d: exit(%d) without MPI_Finalize\n", rank, status);
        fflush(stdout);
        exit(status);
    }

    int sum = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < 1000 && rc == MPI_SUCCESS; ++i)
        rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS, "no failure seen in 1000 allreduces");
    CHECK(error_class(rc) == ft_failure_class(MPI_COMM_WORLD) || error_class(rc) == MPIX_ERR_REVOKED,
          "the allreduce after the exit gave %s", error_class_name(rc));

    MPI_Comm work = MPI_COMM_NULL;
    const char *mode = getenv("FTMPI_COMM_MODE");
    if (mode == NULL || strcmp(mode, "ulfm") == 0) {
        MPIX_Comm_revoke(MPI_COMM_WORLD);
        CHECK_MPI(MPIX_Comm_shrink(MPI_COMM_WORLD, &work));
    } else {
        work = ftm_recover(MPI_COMM_WORLD);
    }
    /* BLANK keeps the extent (the dead rank is a gap); the others shrink. */
    const int expect_size = mode != NULL && strcmp(mode, "blank") == 0 ? size : size - 1;
    int nsize = 0;
    MPI_Comm_size(work, &nsize);
    CHECK(nsize == expect_size, "%d ranks after the recovery, expected %d", nsize, expect_size);
    const int expect = size * (size - 1) / 2 - victim;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, work));
    CHECK(sum == expect, "allreduce over the survivors gave %d, expected %d", sum, expect);
    printf("rank %d: survived the exit of rank %d (communicator of %d)\n", rank, victim, nsize);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
