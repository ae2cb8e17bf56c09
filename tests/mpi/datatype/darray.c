/* MPI_Type_create_darray across the job: every rank builds its piece of a
 * 7 x 10 array distributed BLOCK x CYCLIC(2) over a Dims_create grid, in C
 * and in Fortran order, and checks that it owns exactly the elements the
 * HPF rules give it (computed here independently), and that together the
 * ranks cover every element exactly once. */
#include "support/check.h"

#include <string.h>

#define ROWS 7
#define COLS 10

static void check_order(int order, int rank, int size) {
    int psizes[2] = {0, 0};
    CHECK_MPI(MPI_Dims_create(size, 2, psizes));
    int gsizes[2] = {ROWS, COLS};
    int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2};
    MPI_Datatype piece;
    CHECK_MPI(MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, order, MPI_INT, &piece));
    CHECK_MPI(MPI_Type_commit(&piece));
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(piece, &lb, &extent));
    CHECK(lb == 0 && extent == ROWS * COLS * (MPI_Aint)sizeof(int), "darray extent %ld", (long)extent);

    /* Element (i, j) lives at i*COLS + j in C order, i + j*ROWS in Fortran. */
    int global[ROWS * COLS], mine[ROWS * COLS], packed[ROWS * COLS];
    for (int k = 0; k < ROWS * COLS; ++k) global[k] = k + 1;
    memset(mine, 0, sizeof mine);
    int pos = 0;
    CHECK_MPI(MPI_Pack(global, 1, piece, packed, sizeof packed, &pos, MPI_COMM_WORLD));
    int n = pos / (int)sizeof(int);
    pos = 0;
    CHECK_MPI(MPI_Unpack(packed, sizeof packed, &pos, mine, 1, piece, MPI_COMM_WORLD));

    const int block_rows = (ROWS + psizes[0] - 1) / psizes[0];
    int expected = 0;
    for (int i = 0; i < ROWS; ++i)
        for (int j = 0; j < COLS; ++j) {
            const int owner = (i / block_rows) * psizes[1] + (j / 2) % psizes[1]; /* grid is row-major */
            const int k = order == MPI_ORDER_C ? i * COLS + j : i + j * ROWS;
            if (owner == rank) {
                ++expected;
                CHECK(mine[k] == global[k], "order %d: element (%d,%d) not received", order, i, j);
            } else {
                CHECK(mine[k] == 0, "order %d: element (%d,%d) belongs to rank %d", order, i, j, owner);
            }
        }
    CHECK(n == expected, "order %d: %d elements, expected %d", order, n, expected);

    int owned[ROWS * COLS], total[ROWS * COLS];
    for (int k = 0; k < ROWS * COLS; ++k) owned[k] = mine[k] != 0;
    CHECK_MPI(MPI_Allreduce(owned, total, ROWS * COLS, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int k = 0; k < ROWS * COLS; ++k)
        CHECK(total[k] == 1, "order %d: element %d owned %d times", order, k, total[k]);
    CHECK_MPI(MPI_Type_free(&piece));
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_order(MPI_ORDER_C, rank, size);
    check_order(MPI_ORDER_FORTRAN, rank, size);
    MPI_Finalize();
    return 0;
}
