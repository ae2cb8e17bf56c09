/* Dynamic windows (attach, address exchange, put/get at absolute
 * addresses, detach) and shared windows (MPI_Win_allocate_shared: every
 * rank stores into its own part and loads its neighbours' parts directly
 * after a barrier, shared_query gives each part); shared_query on created,
 * allocated and dynamic windows. */
#include "rma_test.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* Dynamic */
    MPI_Win win;
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    rma_errors_return(win);
    int *region = malloc(16 * sizeof(int));
    for (int i = 0; i < 16; ++i) region[i] = rank * 100 + i;
    CHECK_MPI(MPI_Win_attach(win, region, 16 * sizeof(int)));
    MPI_Aint mine, theirs;
    MPI_Get_address(region, &mine);
    CHECK_MPI(
        MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int v = -rank - 1, got = 0;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, right, theirs + 2 * (MPI_Aint)sizeof(int), 1, MPI_INT, win));
    CHECK_MPI(MPI_Get(&got, 1, MPI_INT, right, theirs + 5 * (MPI_Aint)sizeof(int), 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    CHECK(got == right * 100 + 5, "dynamic get %d", got);
    /* Outside the attached region: MPI_ERR_RMA_RANGE, reported by the target. */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    int rc_put = MPI_Put(&v, 1, MPI_INT, right, theirs + 16 * (MPI_Aint)sizeof(int), 1, MPI_INT, win);
    int rc_unlock = MPI_Win_unlock(right, win);
    CHECK(error_class(rc_put) == MPI_ERR_RMA_RANGE || error_class(rc_unlock) == MPI_ERR_RMA_RANGE,
          "put outside the attached region gave %d / %d", rc_put, rc_unlock);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(region[2] == -left - 1, "region[2] = %d", region[2]);
    /* Two halves of one array attached one after the other: an access may
     * run across both. */
    int halves[8] = {0}, across[8], back[8] = {0};
    CHECK_MPI(MPI_Win_attach(win, halves, 4 * sizeof(int)));
    CHECK_MPI(MPI_Win_attach(win, halves + 4, 4 * sizeof(int)));
    MPI_Get_address(halves, &mine);
    CHECK_MPI(
        MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &theirs, 1, MPI_AINT, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < 8; ++i) across[i] = rank * 1000 + i;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    CHECK_MPI(MPI_Put(across, 6, MPI_INT, right, theirs + 2 * (MPI_Aint)sizeof(int), 6, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(right, win));
    CHECK_MPI(MPI_Get(back, 8, MPI_INT, right, theirs, 8, MPI_INT, win));
    CHECK_MPI(MPI_Win_unlock(right, win));
    CHECK(back[0] == 0 && back[1] == 0 && back[2] == rank * 1000 && back[7] == rank * 1000 + 5,
          "put across two attached regions: %d %d %d %d", back[0], back[1], back[2], back[7]);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(halves[3] == left * 1000 + 1 && halves[4] == left * 1000 + 2, "halves[3..4] = %d %d", halves[3], halves[4]);
    CHECK_MPI(MPI_Win_detach(win, halves + 4));
    CHECK_MPI(MPI_Win_detach(win, halves));
    CHECK_CLASS(MPI_Win_detach(win, region + 1), MPI_ERR_RMA_ATTACH);
    CHECK_MPI(MPI_Win_detach(win, region));
    CHECK_MPI(MPI_Win_free(&win));
    free(region);

    /* Shared */
    int *part = NULL;
    CHECK_MPI(
        MPI_Win_allocate_shared((rank + 1) * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &part, &win));
    rma_errors_return(win);
    for (int i = 0; i <= rank; ++i) part[i] = rank * 10 + i;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    CHECK_MPI(MPI_Win_sync(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_sync(win));
    MPI_Aint qsize;
    int qunit;
    int *theirs_part = NULL;
    CHECK_MPI(MPI_Win_shared_query(win, right, &qsize, &qunit, &theirs_part));
    CHECK(qsize == (right + 1) * (MPI_Aint)sizeof(int) && qunit == sizeof(int), "query size %ld unit %d", (long)qsize,
          qunit);
    for (int i = 0; i <= right; ++i)
        CHECK(theirs_part[i] == right * 10 + i, "direct load of rank %d [%d] = %d", right, i, theirs_part[i]);
    /* RMA calls reach the same memory. */
    int g = -1;
    CHECK_MPI(MPI_Get(&g, 1, MPI_INT, right, right, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(right, win));
    CHECK(g == right * 11, "get from the shared window %d", g);
    CHECK_MPI(MPI_Win_unlock_all(win));
    int *first = NULL;
    CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &qsize, &qunit, &first));
    CHECK(first != NULL && first[0] == 0, "MPI_PROC_NULL query: rank 0's part");
    /* MPI-4.1: shared_query on MPI_Win_create windows too. The caller's
     * own memory is where it gave it; another member's is not reachable by
     * load/store here: size 0, null base, its displacement unit. */
    MPI_Win plain;
    int x[2];
    CHECK_MPI(MPI_Win_create(x, sizeof x, (rank + 1) * 2, MPI_INFO_NULL, MPI_COMM_WORLD, &plain));
    rma_errors_return(plain);
    int *q = NULL;
    CHECK_MPI(MPI_Win_shared_query(plain, rank, &qsize, &qunit, &q));
    CHECK(q == x && qsize == sizeof x && qunit == (rank + 1) * 2, "created window, own memory: %p %ld %d", (void *)q,
          (long)qsize, qunit);
    if (size > 1) {
        q = x;
        CHECK_MPI(MPI_Win_shared_query(plain, right, &qsize, &qunit, &q));
        CHECK(q == NULL && qsize == 0 && qunit == (right + 1) * 2, "created window, rank %d: %p %ld %d", right,
              (void *)q, (long)qsize, qunit);
    }
    /* MPI_PROC_NULL: the lowest rank with memory this process reaches (its own). */
    CHECK_MPI(MPI_Win_shared_query(plain, MPI_PROC_NULL, &qsize, &qunit, &q));
    CHECK(q == x && qsize == sizeof x, "created window, MPI_PROC_NULL: %p %ld", (void *)q, (long)qsize);
    CHECK_CLASS(MPI_Win_attach(plain, x, sizeof x), MPI_ERR_RMA_FLAVOR);
    CHECK_MPI(MPI_Win_free(&plain));

    /* MPI_Win_allocate: a neighbour's segment mapped here (same host, direct
     * access on) is reachable; otherwise size 0 and a null base. */
    int *mem = NULL;
    CHECK_MPI(MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &plain));
    rma_errors_return(plain);
    mem[0] = rank * 7 + 1;
    CHECK_MPI(MPI_Win_lock_all(0, plain));
    CHECK_MPI(MPI_Win_sync(plain));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_sync(plain));
    CHECK_MPI(MPI_Win_shared_query(plain, rank, &qsize, &qunit, &q));
    CHECK(q == mem && qsize == 2 * sizeof(int), "allocated window, own memory: %p %ld", (void *)q, (long)qsize);
    CHECK_MPI(MPI_Win_shared_query(plain, right, &qsize, &qunit, &q));
    if (q != NULL)
        CHECK(qsize == 2 * sizeof(int) && q[0] == right * 7 + 1, "allocated window, rank %d: %ld [0] = %d", right,
              (long)qsize, q[0]);
    else
        CHECK(qsize == 0, "allocated window, rank %d unreachable but size %ld", right, (long)qsize);
    CHECK_MPI(MPI_Win_unlock_all(plain));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_free(&plain));

    /* Dynamic windows have no memory to query. */
    CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &plain));
    rma_errors_return(plain);
    CHECK_CLASS(MPI_Win_shared_query(plain, 0, &qsize, &qunit, &q), MPI_ERR_RMA_FLAVOR);
    CHECK_MPI(MPI_Win_free(&plain));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
