/* Non-contiguous point-to-point: a matrix column (vector) sent to the next
 * rank and received contiguous; an array of C structs sent with a struct
 * type and received with a different type of the same signature; a large
 * strided message (8 MiB of data) that the transport must move in segments;
 * Get_count/Get_elements on a receive that ends inside an element. */
#include "support/check.h"

#include <stddef.h>
#include <string.h>

#define ROWS 50
#define COLS 7

struct particle {
    char tag;
    double pos[3];
    int id;
};

static void column(int rank, int size) {
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    static double m[ROWS][COLS];
    double col[ROWS];
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c) m[r][c] = rank * 10000 + r * 100 + c;
    MPI_Datatype column_t;
    CHECK_MPI(MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &column_t));
    CHECK_MPI(MPI_Type_commit(&column_t));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&m[0][3], 1, column_t, next, 1, col, ROWS, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &st));
    for (int r = 0; r < ROWS; ++r) CHECK(col[r] == prev * 10000 + r * 100 + 3, "column row %d: %g", r, col[r]);
    int n;
    CHECK_MPI(MPI_Get_count(&st, MPI_DOUBLE, &n));
    CHECK(n == ROWS, "Get_count %d", n);

    /* And back: contiguous in, scattered into column 5 of a zeroed matrix. */
    static double back[ROWS][COLS];
    memset(back, 0, sizeof back);
    CHECK_MPI(MPI_Sendrecv(col, ROWS, MPI_DOUBLE, prev, 2, &back[0][5], 1, column_t, next, 2, MPI_COMM_WORLD, &st));
    for (int r = 0; r < ROWS; ++r) {
        CHECK(back[r][5] == rank * 10000 + r * 100 + 3, "scattered row %d: %g", r, back[r][5]);
        CHECK(back[r][4] == 0 && back[r][6] == 0, "neighbour columns written in row %d", r);
    }
    CHECK_MPI(MPI_Get_elements(&st, column_t, &n));
    CHECK(n == ROWS, "Get_elements %d", n);
    CHECK_MPI(MPI_Type_free(&column_t));
}

static void structs(int rank, int size) {
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int bl[] = {1, 3, 1};
    MPI_Aint disp[] = {offsetof(struct particle, tag), offsetof(struct particle, pos), offsetof(struct particle, id)};
    MPI_Datatype types[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, particle_t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &particle_t));
    CHECK_MPI(MPI_Type_commit(&particle_t));
    MPI_Aint lb, extent;
    CHECK_MPI(MPI_Type_get_extent(particle_t, &lb, &extent));
    CHECK(extent == (MPI_Aint)sizeof(struct particle), "struct extent %ld", (long)extent);

    /* The receiver sees the same signature as packed bytes: char, 3 doubles, int. */
    struct particle out[10], in[10];
    for (int i = 0; i < 10; ++i) {
        out[i].tag = (char)('a' + i);
        out[i].pos[0] = rank + i * 0.5;
        out[i].pos[1] = -i;
        out[i].pos[2] = i * i;
        out[i].id = rank * 100 + i;
    }
    memset(in, 0, sizeof in);
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, 10, particle_t, next, 3, in, 10, particle_t, prev, 3, MPI_COMM_WORLD, &st));
    for (int i = 0; i < 10; ++i) {
        CHECK(in[i].tag == 'a' + i && in[i].id == prev * 100 + i, "particle %d: %c %d", i, in[i].tag, in[i].id);
        CHECK(in[i].pos[0] == prev + i * 0.5 && in[i].pos[2] == i * i, "particle %d position", i);
    }
    CHECK_MPI(MPI_Get_elements(&st, particle_t, &bl[0]));
    CHECK(bl[0] == 50, "Get_elements of 10 particles: %d", bl[0]);
    CHECK_MPI(MPI_Type_free(&particle_t));
}

static void large_strided(int rank, int size) {
    /* 1 Mi doubles at stride 2: 8 MiB of data spread over 16 MiB. */
    const int n = 1 << 20;
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    double *src = malloc(sizeof(double) * 2 * n), *dst = malloc(sizeof(double) * 2 * n);
    CHECK(src && dst, "out of memory");
    for (int i = 0; i < 2 * n; ++i) src[i] = rank * 1e7 + i, dst[i] = -1;
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Irecv(dst + 1, 1, every_other, prev, 4, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Isend(src, 1, every_other, next, 4, MPI_COMM_WORLD, &reqs[1]));
    /* Freeing the type while both operations use it is allowed. */
    CHECK_MPI(MPI_Type_free(&every_other));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; ++i) {
        if (dst[2 * i + 1] != prev * 1e7 + 2 * i || dst[2 * i] != -1) {
            CHECK(0, "large strided message wrong at element %d: %g", i, dst[2 * i + 1]);
        }
    }
    free(src);
    free(dst);
}

static void partial(int rank, int size) {
    /* 3 ints received as pairs of ints: Get_count is undefined, 3 elements. */
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[3] = {1, 2, 3}, in[4] = {0};
    MPI_Datatype two;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(out, 3, MPI_INT, next, 5, in, 2, two, prev, 5, MPI_COMM_WORLD, &st));
    int count, elements;
    CHECK_MPI(MPI_Get_count(&st, two, &count));
    CHECK_MPI(MPI_Get_elements(&st, two, &elements));
    MPI_Count elements_x;
    CHECK_MPI(MPI_Get_elements_x(&st, two, &elements_x));
    CHECK(count == MPI_UNDEFINED, "Get_count of 1.5 pairs: %d", count);
    CHECK(elements == 3 && elements_x == 3, "Get_elements: %d", elements);
    CHECK(in[2] == 3 && in[3] == 0, "partial receive wrote %d %d", in[2], in[3]);
    CHECK_MPI(MPI_Type_free(&two));
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    column(rank, size);
    structs(rank, size);
    large_strided(rank, size);
    partial(rank, size);
    MPI_Finalize();
    return 0;
}
