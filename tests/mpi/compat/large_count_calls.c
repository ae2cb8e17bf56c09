/* The MPI-4 `_c` large-count calls: counts that fit an int work as the int
 * calls; larger ones work in point-to-point and datatype constructors, and
 * are refused with MPI_ERR_COUNT through the communicator's error handler
 * by the collectives. */
#include "support/check.h"

#include <limits.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[4] = {rank, rank + 1, rank + 2, rank + 3}, in[4] = {-1, -1, -1, -1};
    MPI_Status st;
    MPI_Request r;
    CHECK_MPI(MPI_Irecv_c(in, 4, MPI_INT, prev, 1, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Send_c(out, 4, MPI_INT, next, 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    MPI_Count count = -1;
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count));
    CHECK(count == 4 && in[3] == prev + 3, "Send_c/Irecv_c: count %lld in[3] %d", (long long)count, in[3]);
    CHECK_MPI(MPI_Sendrecv_c(out, 2, MPI_INT, next, 2, in, 2, MPI_INT, prev, 2, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_elements_c(&st, MPI_INT, &count));
    CHECK(count == 2, "Sendrecv_c elements %lld", (long long)count);

    int b = rank == 0 ? 77 : 0, sum = 0, one = 1;
    CHECK_MPI(MPI_Bcast_c(&b, 1, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce_c(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(b == 77 && sum == size, "Bcast_c %d Allreduce_c %d", b, sum);

    MPI_Datatype v;
    MPI_Count tsize = 0, lb = -1, extent = -1;
    CHECK_MPI(MPI_Type_vector_c(3, 2, 4, MPI_INT, &v));
    CHECK_MPI(MPI_Type_size_c(v, &tsize));
    CHECK_MPI(MPI_Type_get_extent_c(v, &lb, &extent));
    CHECK(tsize == 24 && lb == 0 && extent == 40, "Type_vector_c size %lld extent %lld", (long long)tsize,
          (long long)extent);
    char packed[64];
    MPI_Count position = 0, psize = 0;
    CHECK_MPI(MPI_Pack_size_c(4, MPI_INT, MPI_COMM_WORLD, &psize));
    CHECK_MPI(MPI_Pack_c(out, 4, MPI_INT, packed, sizeof packed, &position, MPI_COMM_WORLD));
    CHECK(position == 16 && psize >= 16, "Pack_c position %lld", (long long)position);
    position = 0;
    CHECK_MPI(MPI_Unpack_c(packed, sizeof packed, &position, in, 4, MPI_INT, MPI_COMM_WORLD));
    CHECK(in[2] == rank + 2, "Unpack_c");

    /* Counts past INT_MAX. A receive may be that large (only the message's
     * 4 ints are written); a contiguous type may; a collective refuses them
     * with MPI_ERR_COUNT. */
    const MPI_Count huge = (MPI_Count)INT_MAX + 1;
    CHECK_MPI(MPI_Irecv_c(in, huge, MPI_INT, prev, 3, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Send_c(out, 4, MPI_INT, next, 3, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count));
    CHECK(count == 4 && in[3] == prev + 3, "Irecv_c of a huge count: count %lld", (long long)count);
    MPI_Datatype big;
    CHECK_MPI(MPI_Type_contiguous_c(huge, MPI_INT, &big));
    CHECK_MPI(MPI_Type_size_c(big, &tsize));
    CHECK(tsize == 4 * huge, "Type_contiguous_c(INT_MAX + 1) size %lld", (long long)tsize);
    MPI_Type_free(&big);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Send_c(out, -1, MPI_INT, next, 3, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Bcast_c(out, huge, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Allreduce_c(out, in, huge, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);
    MPI_Type_free(&v);
    MPI_Finalize();
    return 0;
}
