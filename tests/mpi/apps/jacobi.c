/* A real application kernel: 2-D Jacobi relaxation of Laplace's equation on
 * an N x N interior grid (boundary: 1 on the top edge, 0 elsewhere),
 * decomposed over a Cartesian process grid (Dims_create, Cart_create,
 * Cart_shift, Cart_coords), halos exchanged with Sendrecv (rows contiguous,
 * columns as an MPI_Type_vector), the residual summed with Allreduce.
 * Every rank also runs the serial algorithm and checks its block, and the
 * residual history, against it. N is not a multiple of the grid, so blocks
 * differ in size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"

enum { N = 50, ITERATIONS = 300, REPORT_EVERY = 50 };

/* Serial reference: (N+2)^2 grid with boundary, returns the residuals. */
static void serial(double *u, double residuals[]) {
    const int w = N + 2;
    double *next = calloc((size_t)w * w, sizeof *next);
    for (int j = 0; j < w; ++j) u[j] = next[j] = 1.0; /* top edge */
    for (int it = 1; it <= ITERATIONS; ++it) {
        double r = 0;
        for (int i = 1; i <= N; ++i)
            for (int j = 1; j <= N; ++j) {
                double v = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
                r += (v - u[i * w + j]) * (v - u[i * w + j]);
                next[i * w + j] = v;
            }
        for (int i = 1; i <= N; ++i) memcpy(&u[i * w + 1], &next[i * w + 1], N * sizeof(double));
        if (it % REPORT_EVERY == 0) residuals[it / REPORT_EVERY] = sqrt(r);
    }
    free(next);
}

/* First global index and length of block `c` of `p` over n points. */
static void block(int n, int p, int c, int *first, int *len) {
    *len = n / p + (c < n % p);
    *first = c * (n / p) + (c < n % p ? c : n % p);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int dims[2] = {0, 0}, periods[2] = {0, 0};
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    MPI_Comm grid;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &grid));
    int rank, coords[2];
    MPI_Comm_rank(grid, &rank);
    CHECK_MPI(MPI_Cart_coords(grid, rank, 2, coords));
    int up, down, left, right;
    CHECK_MPI(MPI_Cart_shift(grid, 0, 1, &up, &down));
    CHECK_MPI(MPI_Cart_shift(grid, 1, 1, &left, &right));

    int row0, rows, col0, cols;
    block(N, dims[0], coords[0], &row0, &rows);
    block(N, dims[1], coords[1], &col0, &cols);
    /* Local block with a one-cell halo; global boundary values in the halo. */
    const int w = cols + 2;
    double *u = calloc((size_t)(rows + 2) * w, sizeof *u), *next = calloc((size_t)(rows + 2) * w, sizeof *next);
    if (coords[0] == 0)
        for (int j = 0; j < w; ++j) u[j] = next[j] = 1.0;

    MPI_Datatype column;
    CHECK_MPI(MPI_Type_vector(rows, 1, w, MPI_DOUBLE, &column));
    CHECK_MPI(MPI_Type_commit(&column));

    double residuals[ITERATIONS / REPORT_EVERY + 1];
    for (int it = 1; it <= ITERATIONS; ++it) {
        /* Halo exchange: rows up/down, columns left/right (PROC_NULL at edges). */
        CHECK_MPI(MPI_Sendrecv(&u[1 * w + 1], cols, MPI_DOUBLE, up, 0, &u[(rows + 1) * w + 1], cols, MPI_DOUBLE, down,
                               0, grid, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Sendrecv(&u[rows * w + 1], cols, MPI_DOUBLE, down, 1, &u[0 * w + 1], cols, MPI_DOUBLE, up, 1,
                               grid, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Sendrecv(&u[1 * w + 1], 1, column, left, 2, &u[1 * w + cols + 1], 1, column, right, 2, grid,
                               MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Sendrecv(&u[1 * w + cols], 1, column, right, 3, &u[1 * w + 0], 1, column, left, 3, grid,
                               MPI_STATUS_IGNORE));
        double r = 0;
        for (int i = 1; i <= rows; ++i)
            for (int j = 1; j <= cols; ++j) {
                double v = 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] + u[i * w + j + 1]);
                r += (v - u[i * w + j]) * (v - u[i * w + j]);
                next[i * w + j] = v;
            }
        for (int i = 1; i <= rows; ++i) memcpy(&u[i * w + 1], &next[i * w + 1], (size_t)cols * sizeof(double));
        if (it % REPORT_EVERY == 0) {
            double total = 0;
            CHECK_MPI(MPI_Allreduce(&r, &total, 1, MPI_DOUBLE, MPI_SUM, grid));
            residuals[it / REPORT_EVERY] = sqrt(total);
        }
    }

    /* The serial answer, computed by every rank, checked block by block. */
    double *ref = calloc((size_t)(N + 2) * (N + 2), sizeof *ref);
    double ref_residuals[ITERATIONS / REPORT_EVERY + 1];
    serial(ref, ref_residuals);
    double worst = 0;
    for (int i = 1; i <= rows; ++i)
        for (int j = 1; j <= cols; ++j) {
            double d = fabs(u[i * w + j] - ref[(row0 + i) * (N + 2) + col0 + j]);
            if (d > worst) worst = d;
        }
    double worst_all = 0;
    CHECK_MPI(MPI_Allreduce(&worst, &worst_all, 1, MPI_DOUBLE, MPI_MAX, grid));
    CHECK(worst_all < 1e-12, "grid differs from the serial answer by %g", worst_all);
    for (int k = 1; k <= ITERATIONS / REPORT_EVERY; ++k)
        CHECK(fabs(residuals[k] - ref_residuals[k]) <= 1e-9 * ref_residuals[k], "residual %d: %.15g vs serial %.15g", k,
              residuals[k], ref_residuals[k]);
    CHECK(ref_residuals[ITERATIONS / REPORT_EVERY] < ref_residuals[1], "the serial iteration did not converge");
    if (rank == 0)
        printf("jacobi %dx%d on %dx%d ranks: %d iterations, residual %.3e, max deviation %.1e\n", N, N, dims[0],
               dims[1], ITERATIONS, residuals[ITERATIONS / REPORT_EVERY], worst_all);

    free(ref);
    free(u);
    free(next);
    CHECK_MPI(MPI_Type_free(&column));
    CHECK_MPI(MPI_Comm_free(&grid));
    MPI_Finalize();
    return 0;
}
