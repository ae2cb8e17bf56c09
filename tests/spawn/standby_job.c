/* The MPI job of the hot-standby test (ftmpi_standby.cpp): two ranks in
 * REBUILD mode, the test kills rank 1 and promotes a standby process (this
 * program with FTMPI_STANDBY=0) to replace it. Each process prints what
 * MPI_Init returned, then every one recovers MPI_COMM_WORLD with
 * MPI_Comm_dup (FT-MPI's restart flow) and sums rank + 1 over it: 3 in a
 * job of two. A check that fails prints "FAILED: " and exits 1. */
#include <mpi-ext.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("FAILED: ");                                                                                        \
            printf(__VA_ARGS__);                                                                                       \
            printf(" (line %d)\n", __LINE__);                                                                          \
            fflush(stdout);                                                                                            \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

int main(int argc, char **argv) {
    int init = MPI_Init(&argc, &argv);
    CHECK(init == MPI_SUCCESS || init == MPI_INIT_RESTARTED_NODE, "MPI_Init returned %d", init);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank = -1, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (init == MPI_INIT_RESTARTED_NODE) {
        printf("standby_job: restarted as rank %d of %d\n", rank, size);
    } else {
        printf("standby_job: rank %d of %d initialized\n", rank, size);
        fflush(stdout);
        /* Rank 1 waits here until the test kills it; rank 0's receive
         * fails once the VM says rank 1 died. */
        int value = 0;
        int e = MPI_Recv(&value, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rank == 0 && e != MPI_SUCCESS, "rank %d: the receive returned %d", rank, e);
        printf("standby_job: rank 0 saw rank 1 fail\n");
    }
    fflush(stdout);

    /* The recovery (survivors) and the replacement's first constructor meet
     * here; a failure after the recovery's last agreement makes the
     * constructor fail, and it is called again. */
    MPI_Comm work = MPI_COMM_NULL;
    int e = MPI_ERR_OTHER;
    for (int attempt = 0; attempt < 3 && e != MPI_SUCCESS; ++attempt) e = MPI_Comm_dup(MPI_COMM_WORLD, &work);
    CHECK(e == MPI_SUCCESS, "rank %d: MPI_Comm_dup returned %d", rank, e);
    int work_size = 0;
    MPI_Comm_size(work, &work_size);
    CHECK(work_size == 2, "rank %d: the recovered world has %d ranks", rank, work_size);
    int mine = rank + 1, sum = 0;
    e = MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, work);
    CHECK(e == MPI_SUCCESS, "rank %d: MPI_Allreduce returned %d", rank, e);
    printf("standby_job: rank %d sum %d\n", rank, sum);
    MPI_Comm_free(&work);
    MPI_Finalize();
    printf("standby_job: rank %d finalized\n", rank);
    return 0;
}
