/* Derived origin and target datatypes: a vector put into a contiguous
 * target, a contiguous get from a strided target, a struct (int + double
 * with a gap) put and read back, and accumulate with a vector target. */
#include "rma_test.h"

struct rec {
    int i;
    double d;
};

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double *mem = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(64 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    rma_errors_return(win);
    for (int i = 0; i < 64; ++i) mem[i] = rank * 1000 + i;

    MPI_Datatype every_other; /* 4 doubles, stride 2 */
    CHECK_MPI(MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    double src[8], got[4];
    for (int i = 0; i < 8; ++i) src[i] = rank + i * 0.25;

    CHECK_MPI(MPI_Win_fence(0, win));
    /* origin vector -> target contiguous slots 0..3 */
    CHECK_MPI(MPI_Put(src, 1, every_other, right, 0, 4, MPI_DOUBLE, win));
    /* target vector (slots 8,10,12,14) -> origin contiguous */
    CHECK_MPI(MPI_Get(got, 4, MPI_DOUBLE, right, 8, 1, every_other, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    for (int k = 0; k < 4; ++k) {
        CHECK(mem[k] == left + 2 * k * 0.25, "mem[%d] = %g", k, mem[k]);
        CHECK(got[k] == right * 1000 + 8 + 2 * k, "got[%d] = %g", k, got[k]);
    }

    /* A struct with a gap between its int and its double. */
    MPI_Datatype rec_type;
    int lens[2] = {1, 1};
    MPI_Aint disps[2] = {offsetof(struct rec, i), offsetof(struct rec, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    CHECK_MPI(MPI_Type_create_struct(2, lens, disps, types, &rec_type));
    CHECK_MPI(MPI_Type_commit(&rec_type));
    struct rec out[2] = {{rank, rank * 0.5}, {rank + 1, rank * 1.5}}, in[2];
    memset(in, 0, sizeof in);
    /* Target: the struct layout placed at slot 20 (byte displacement via disp_unit 8). */
    CHECK_MPI(MPI_Put(out, 2, rec_type, right, 20, 2, rec_type, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get(in, 2, rec_type, right, 20, 2, rec_type, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(in[0].i == rank && in[0].d == rank * 0.5 && in[1].i == rank + 1 && in[1].d == rank * 1.5,
          "struct read back {%d %g} {%d %g}", in[0].i, in[0].d, in[1].i, in[1].d);

    /* Accumulate into a strided target: every rank adds to rank 0's slots 40,42,44,46. */
    double ones[4] = {1, 2, 3, 4};
    if (rank == 0) {
        for (int k = 0; k < 8; ++k) mem[40 + k] = 0;
        struct {
            double v;
            int i;
        } lowest = {-1e300, -1};
        memcpy(&mem[48], &lowest, sizeof lowest);
        int highest[2] = {1 << 30, -1};
        memcpy(&mem[52], highest, sizeof highest);
    }
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Accumulate(ones, 4, MPI_DOUBLE, 0, 40, 1, every_other, MPI_SUM, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    if (rank == 0)
        for (int k = 0; k < 4; ++k) {
            CHECK(mem[40 + 2 * k] == (k + 1.0) * size, "accumulated mem[%d] = %g", 40 + 2 * k, mem[40 + 2 * k]);
            CHECK(mem[41 + 2 * k] == 0, "gap mem[%d] = %g touched", 41 + 2 * k, mem[41 + 2 * k]);
        }
    /* Pair types: MPI_MAXLOC on MPI_DOUBLE_INT (padded: its extent is
     * larger than its data) and MPI_MINLOC on MPI_2INT, into rank 0. */
    struct {
        double v;
        int i;
    } mine = {rank * 1.5, rank}, best = {-1, -1};
    int pair[2] = {100 - rank, rank}, low[2] = {-1, -1};
    CHECK_MPI(MPI_Accumulate(&mine, 1, MPI_DOUBLE_INT, 0, 48, 1, MPI_DOUBLE_INT, MPI_MAXLOC, win));
    CHECK_MPI(MPI_Accumulate(pair, 1, MPI_2INT, 0, 52, 1, MPI_2INT, MPI_MINLOC, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Get(&best, 1, MPI_DOUBLE_INT, 0, 48, 1, MPI_DOUBLE_INT, win));
    CHECK_MPI(MPI_Get(low, 1, MPI_2INT, 0, 52, 1, MPI_2INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(best.v == (size - 1) * 1.5 && best.i == size - 1, "MAXLOC gave (%g, %d)", best.v, best.i);
    CHECK(low[0] == 100 - (size - 1) && low[1] == size - 1, "MINLOC gave (%d, %d)", low[0], low[1]);

    /* A struct mixing int and double cannot be accumulated. */
    CHECK_CLASS(MPI_Accumulate(out, 1, rec_type, right, 20, 1, rec_type, MPI_SUM, win), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Win_fence(0, win));
    MPI_Type_free(&every_other);
    MPI_Type_free(&rec_type);
    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
