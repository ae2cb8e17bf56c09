/* The MPI-4 `_c` large-count forms beyond large_count_calls.c, one or more
 * of each kind: v- and w-collectives (blocking, non-blocking, persistent,
 * neighbourhood), scalar non-blocking and persistent collectives, the
 * other point-to-point forms, one-sided, I/O, datatype constructors with
 * arrays, external32, reductions. Counts that fit an int work as the int
 * calls (results checked); larger ones, in a scalar or an array, are
 * refused with MPI_ERR_COUNT through the object's error handler where the
 * call moves at most INT_MAX elements (collectives, one-sided, I/O); datatype
 * constructors and point-to-point take them. */
#include "support/check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const MPI_Count too_big = (MPI_Count)INT_MAX + 1;

static void collectives(int rank, int size) {
    MPI_Count *counts = malloc(sizeof(MPI_Count) * (size_t)size);
    MPI_Aint *displs = malloc(sizeof(MPI_Aint) * (size_t)size);
    int *all = malloc(sizeof(int) * 2 * (size_t)size), mine[2] = {10 * rank, 10 * rank + 1};
    for (int i = 0; i < size; ++i) {
        counts[i] = 2;
        displs[i] = 2 * (size - 1 - i); /* reversed */
    }
    /* Allgatherv_c: rank i's block at displacement 2 * (size - 1 - i). */
    CHECK_MPI(MPI_Allgatherv_c(mine, 2, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < size; ++i)
        CHECK(all[2 * (size - 1 - i)] == 10 * i && all[2 * (size - 1 - i) + 1] == 10 * i + 1,
              "Allgatherv_c block of %d", i);
    /* Ialltoallv_c: one int to each rank. */
    int *out = malloc(sizeof(int) * (size_t)size), *in = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; ++i) {
        out[i] = 100 * rank + i;
        in[i] = -1;
        counts[i] = 1;
        displs[i] = i;
    }
    MPI_Request r;
    CHECK_MPI(MPI_Ialltoallv_c(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i < size; ++i) CHECK(in[i] == 100 * i + rank, "Ialltoallv_c from %d: %d", i, in[i]);
    /* Gatherv_init_c, twice: the narrowed arrays belong to the request. */
    MPI_Request g;
    for (int i = 0; i < size; ++i) {
        counts[i] = 2;
        displs[i] = 2 * i;
    }
    CHECK_MPI(MPI_Gatherv_init_c(mine, 2, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &g));
    for (int i = 0; i < size; ++i) counts[i] = displs[i] = -99; /* Start reads the narrowed copy, not these */
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < 2 * size; ++i) all[i] = -1;
        CHECK_MPI(MPI_Start(&g));
        CHECK_MPI(MPI_Wait(&g, MPI_STATUS_IGNORE));
        if (rank == 0)
            for (int i = 0; i < size; ++i) CHECK(all[2 * i] == 10 * i, "Gatherv_init_c round %d block %d", round, i);
    }
    CHECK_MPI(MPI_Request_free(&g));
    /* Scalar forms: Iscan_c, Reduce_scatter_block_c, Allreduce_init_c. */
    int one = 1, prefix = 0, sum = 0, block[1] = {0};
    CHECK_MPI(MPI_Iscan_c(&one, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(prefix == rank + 1, "Iscan_c %d", prefix);
    for (int i = 0; i < size; ++i) out[i] = i;
    CHECK_MPI(MPI_Reduce_scatter_block_c(out, block, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(block[0] == rank * size, "Reduce_scatter_block_c %d", block[0]);
    CHECK_MPI(MPI_Allreduce_init_c(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(sum == size, "Allreduce_init_c %d", sum);
    CHECK_MPI(MPI_Request_free(&r));
    /* Too large: a scalar, and one entry of an array. */
    CHECK_CLASS(MPI_Iallgather_c(mine, too_big, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD, &r), MPI_ERR_COUNT);
    for (int i = 0; i < size; ++i) {
        counts[i] = 1;
        displs[i] = i;
    }
    counts[size - 1] = too_big;
    CHECK_CLASS(MPI_Alltoallv_c(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Scatterv_init_c(out, counts, displs, MPI_INT, in, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                rank == 0 ? MPI_ERR_COUNT : MPI_SUCCESS); /* significant at the root only */
    if (rank != 0) CHECK_MPI(MPI_Request_free(&r));
    free(counts);
    free(displs);
    free(all);
    free(out);
    free(in);
}

/* A periodic ring: both neighbourhood v-forms (blocking, non-blocking). */
static void neighbors(int rank, int size) {
    int dims[1] = {size}, periods[1] = {1}, prev, next;
    MPI_Comm ring;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    MPI_Cart_shift(ring, 0, 1, &prev, &next);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    const MPI_Count counts[2] = {1, 1};
    const MPI_Aint displs[2] = {1, 0};
    int in[2] = {-1, -1}, out[2] = {100 * rank, 100 * rank + 1};
    CHECK_MPI(MPI_Neighbor_allgatherv_c(&rank, 1, MPI_INT, in, counts, displs, MPI_INT, ring));
    CHECK(in[1] == prev && in[0] == next, "Neighbor_allgatherv_c got %d %d", in[0], in[1]);
    const MPI_Aint bytes[2] = {0, sizeof(int)};
    const MPI_Datatype ints[2] = {MPI_INT, MPI_INT};
    MPI_Request r;
    CHECK_MPI(MPI_Ineighbor_alltoallw_c(out, counts, bytes, ints, in, counts, bytes, ints, ring, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(in[0] == 100 * prev + 1 && in[1] == 100 * next, "Ineighbor_alltoallw_c got %d %d", in[0], in[1]);
    const MPI_Count big[2] = {1, too_big};
    CHECK_CLASS(MPI_Neighbor_alltoallv_c(out, big, displs, MPI_INT, in, counts, displs, MPI_INT, ring), MPI_ERR_COUNT);
    MPI_Comm_free(&ring);
}

static void point_to_point(int rank, int size) {
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int x = rank;
    MPI_Request r;
    CHECK_MPI(MPI_Isendrecv_replace_c(&x, 1, MPI_INT, next, 5, prev, 5, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(x == prev, "Isendrecv_replace_c got %d", x);
    CHECK_MPI(MPI_Ssend_init_c(&rank, 1, MPI_INT, next, 6, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Start(&r));
    CHECK_MPI(MPI_Recv_c(&x, 1, MPI_INT, prev, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Request_free(&r));
    CHECK(x == prev, "Ssend_init_c delivered %d", x);
    CHECK_CLASS(MPI_Sendrecv_replace_c(&x, -1, MPI_INT, next, 7, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                MPI_ERR_COUNT);
    static char attached[1024 + MPI_BSEND_OVERHEAD];
    void *back;
    MPI_Count bytes = 0;
    CHECK_MPI(MPI_Buffer_attach_c(attached, sizeof attached));
    CHECK_MPI(MPI_Buffer_detach_c(&back, &bytes));
    CHECK(back == attached && bytes == (MPI_Count)sizeof attached, "Buffer_detach_c gave %lld bytes", (long long)bytes);
}

static void one_sided(int rank, int size) {
    int *base;
    MPI_Win win;
    CHECK_MPI(
        MPI_Win_allocate_c(sizeof(int) * (MPI_Aint)size, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    for (int i = 0; i < size; ++i) base[i] = -1;
    CHECK_MPI(MPI_Win_fence(0, win));
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    CHECK_MPI(MPI_Put_c(&rank, 1, MPI_INT, next, rank, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK(base[prev] == prev, "Put_c left %d", base[prev]);
    CHECK_CLASS(MPI_Get_c(&rank, too_big, MPI_INT, next, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_CLASS(MPI_Win_create_c(NULL, 0, too_big, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP);
}

static void files(int rank) {
    char name[64];
    snprintf(name, sizeof name, "/tmp/ftmpi_large_count_more_%d_%d.dat", (int)getpid(), rank);
    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                            MPI_INFO_NULL, &fh));
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    int out[3] = {rank, 7, 9}, in[3] = {0, 0, 0};
    MPI_Status st;
    CHECK_MPI(MPI_File_write_at_c(fh, 0, out, 3, MPI_INT, &st));
    MPI_Request r;
    CHECK_MPI(MPI_File_iread_at_c(fh, 0, in, 3, MPI_INT, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(in[0] == rank && in[2] == 9, "File_iread_at_c read %d %d", in[0], in[2]);
    MPI_Count extent = 0;
    CHECK_MPI(MPI_File_get_type_extent_c(fh, MPI_INT, &extent));
    CHECK(extent == sizeof(int), "File_get_type_extent_c %lld", (long long)extent);
    CHECK_CLASS(MPI_File_read_c(fh, in, too_big, MPI_INT, &st), MPI_ERR_COUNT);
    CHECK_MPI(MPI_File_close(&fh));
}

/* A user reduction of MPI_Op_create_c: its length comes as an MPI_Count. */
static void add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type) {
    (void)type;
    for (MPI_Count i = 0; i < *len; ++i) ((int *)inout)[i] += ((const int *)in)[i];
}

static void datatypes(void) {
    const MPI_Count lengths[2] = {1, 2}, displs[2] = {0, 3};
    MPI_Datatype t;
    MPI_Count size = 0, lb = 0, extent = 0;
    CHECK_MPI(MPI_Type_indexed_c(2, lengths, displs, MPI_INT, &t));
    CHECK_MPI(MPI_Type_size_c(t, &size));
    CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
    CHECK(size == 12 && extent == 20, "Type_indexed_c size %lld extent %lld", (long long)size, (long long)extent);
    MPI_Count ni = -1, na = -1, nl = -1, nd = -1;
    int combiner = 0;
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_INDEXED && ni == 5 && na == 0 && nl == 0 && nd == 1, "Type_get_envelope_c");
    int integers[5];
    MPI_Datatype types[1];
    CHECK_MPI(MPI_Type_get_contents_c(t, 5, 0, 0, 1, integers, NULL, NULL, types));
    CHECK(integers[0] == 2 && integers[4] == 3 && types[0] == MPI_INT, "Type_get_contents_c");
    MPI_Type_free(&t);
    const MPI_Count sizes[2] = {4, 4}, subsizes[2] = {2, 2}, starts[2] = {1, 1};
    CHECK_MPI(MPI_Type_create_subarray_c(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t));
    CHECK_MPI(MPI_Type_size_c(t, &size));
    CHECK(size == 16, "Type_create_subarray_c size %lld", (long long)size);
    MPI_Type_free(&t);
    /* A block length no int holds: the type is built (never touched here),
     * and its arguments are large counts, which the int envelope cannot give. */
    const MPI_Count big[2] = {1, too_big};
    CHECK_MPI(MPI_Type_indexed_c(2, big, displs, MPI_INT, &t));
    CHECK_MPI(MPI_Type_size_c(t, &size));
    CHECK(size == 4 * (1 + too_big), "Type_indexed_c with a large block: size %lld", (long long)size);
    CHECK_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_INDEXED && ni == 0 && na == 0 && nl == 5 && nd == 1,
          "Type_get_envelope_c of a large type: %lld %lld %lld %lld", (long long)ni, (long long)na, (long long)nl,
          (long long)nd);
    MPI_Count large[5];
    CHECK_MPI(MPI_Type_get_contents_c(t, 0, 0, 5, 1, NULL, NULL, large, types));
    CHECK(large[0] == 2 && large[2] == too_big && large[4] == 3 && types[0] == MPI_INT, "Type_get_contents_c large");
    int ni_int, na_int, nd_int;
    CHECK_CLASS(MPI_Type_get_envelope(t, &ni_int, &na_int, &nd_int, &combiner), MPI_ERR_TYPE);
    MPI_Type_free(&t);
    CHECK_MPI(MPI_Type_create_hvector_c(2, 1, 16, MPI_INT, &t));
    CHECK_MPI(MPI_Type_get_extent_c(t, &lb, &extent));
    CHECK(extent == 20, "Type_create_hvector_c extent %lld", (long long)extent);
    MPI_Type_free(&t);
    int values[2] = {1, 2}, back[2] = {0, 0};
    char buf[16];
    MPI_Count position = 0, packed = 0;
    CHECK_MPI(MPI_Pack_external_size_c("external32", 2, MPI_INT, &packed));
    CHECK_MPI(MPI_Pack_external_c("external32", values, 2, MPI_INT, buf, sizeof buf, &position));
    CHECK(packed == 8 && position == 8, "Pack_external_c %lld %lld", (long long)packed, (long long)position);
    position = 0;
    CHECK_MPI(MPI_Unpack_external_c("external32", buf, sizeof buf, &position, back, 2, MPI_INT));
    CHECK(back[1] == 2, "Unpack_external_c %d", back[1]);
    int acc[2] = {10, 20};
    CHECK_MPI(MPI_Reduce_local_c(values, acc, 2, MPI_INT, MPI_SUM));
    CHECK(acc[0] == 11 && acc[1] == 22, "Reduce_local_c %d %d", acc[0], acc[1]);
    CHECK_CLASS(MPI_Reduce_local_c(values, acc, too_big, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
    MPI_Op sum_c;
    CHECK_MPI(MPI_Op_create_c(add_c, 1, &sum_c));
    CHECK_MPI(MPI_Reduce_local_c(values, acc, 2, MPI_INT, sum_c));
    CHECK(acc[0] == 12 && acc[1] == 24, "an MPI_Op_create_c op gave %d %d", acc[0], acc[1]);
    int ranks = 0, total = 0, one = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    CHECK_MPI(MPI_Allreduce(&one, &total, 1, MPI_INT, sum_c, MPI_COMM_WORLD));
    CHECK(total == ranks, "Allreduce with an MPI_Op_create_c op gave %d", total);
    CHECK_MPI(MPI_Op_free(&sum_c));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    collectives(rank, size);
    neighbors(rank, size);
    point_to_point(rank, size);
    one_sided(rank, size);
    files(rank);
    datatypes();
    if (rank == 0) printf("large_count_more: every kind of _c call checked on %d ranks\n", size);
    MPI_Finalize();
    return 0;
}
