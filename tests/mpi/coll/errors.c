/*
 * Bad arguments to collectives return the right error class under
 * MPI_ERRORS_RETURN (root out of range, negative count, null type, null or
 * mismatched op, null communicator, misplaced MPI_IN_PLACE) and leave the
 * communicator usable: a correct collective right after each still works.
 * Every rank makes the same bad call, so nobody waits for a partner.
 */
#include "check.h"

static int rank, size;

static void expect_class(int rc, int want, const char *what) {
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == want, "%s: returned %d (class %d), want class %d", what, rc, cls, want);
}

/* Where two arguments are wrong at once (a null type makes any op invalid
 * for it), either class is right; Open MPI reports the op. */
static void expect_either(int rc, int want1, int want2, const char *what) {
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && (cls == want1 || cls == want2), "%s: returned %d (class %d), want class %d or %d", what,
          rc, cls, want1, want2);
}

static void still_works(const char *after) {
    int one = 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size, "Allreduce after %s: %d", after, sum);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int buf[4] = {1, 2, 3, 4}, out[4];
    int *big = malloc(sizeof(int) * 4 * (size_t)size);
    MPI_Request req;

    expect_class(MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "Bcast root = size");
    expect_class(MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT, "Bcast root = -1");
    expect_class(MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, size + 3, MPI_COMM_WORLD), MPI_ERR_ROOT, "Reduce root");
    expect_class(MPI_Gather(buf, 1, MPI_INT, big, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT, "Gather root");
    expect_class(MPI_Scatter(big, 1, MPI_INT, buf, 1, MPI_INT, -5, MPI_COMM_WORLD), MPI_ERR_ROOT, "Scatter root");
    expect_class(MPI_Ibcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD, &req), MPI_ERR_ROOT, "Ibcast root");
    still_works("bad roots");

    expect_class(MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "Bcast count -1");
    expect_class(MPI_Allreduce(buf, out, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT, "Allreduce count");
    expect_class(MPI_Allgather(buf, -1, MPI_INT, big, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT, "Allgather count");
    expect_class(MPI_Iallreduce(buf, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_COUNT,
                 "Iallreduce count");
    still_works("negative counts");

    expect_class(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "Bcast null type");
    expect_either(MPI_Allreduce(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_TYPE, MPI_ERR_OP,
                  "Allreduce null type");
    expect_class(MPI_Alltoall(big, 1, MPI_DATATYPE_NULL, big, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TYPE,
                 "Alltoall null type");
    still_works("null types");

    expect_class(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP, "Allreduce null op");
    expect_class(MPI_Reduce(buf, out, 1, MPI_DOUBLE, MPI_BAND, 0, MPI_COMM_WORLD), MPI_ERR_OP, "BAND on double");
    expect_class(MPI_Scan(buf, out, 1, MPI_FLOAT, MPI_LXOR, MPI_COMM_WORLD), MPI_ERR_OP, "LXOR on float");
    still_works("bad ops");

    /* MPI_COMM_NULL: the error goes to MPI_COMM_WORLD's handler (ERRORS_RETURN). */
    expect_class(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM, "Barrier null comm");
    expect_class(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM, "Allreduce null comm");
    expect_class(MPI_Ibarrier(MPI_COMM_NULL, &req), MPI_ERR_COMM, "Ibarrier null comm");
    still_works("null communicators");

    /* MPI_IN_PLACE where the standard does not allow it. */
    expect_class(MPI_Allreduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "Allreduce recvbuf IN_PLACE");
    still_works("misplaced IN_PLACE");

    /* One buffer as both the data sent and where this rank's result lands
     * (aliasing: MPI_IN_PLACE is the way to say that): MPI_ERR_BUFFER on
     * every rank for the all-to-all kinds, and nothing written. */
    for (int i = 0; i < 4 * size; ++i) big[i] = i;
    expect_class(MPI_Allreduce(big, big, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "Allreduce aliased");
    expect_class(MPI_Iallreduce(big, big, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER,
                 "Iallreduce aliased");
    expect_class(MPI_Allgather(big + rank, 1, MPI_INT, big, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "Allgather from its own block");
    expect_class(MPI_Alltoall(big, 1, MPI_INT, big, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER, "Alltoall aliased");
    expect_class(MPI_Scan(big, big, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER, "Scan aliased");
    expect_class(MPI_Reduce_scatter_block(big, big, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "Reduce_scatter_block aliased");
    for (int i = 0; i < 4 * size; ++i) CHECK(big[i] == i, "a refused collective wrote big[%d] = %d", i, big[i]);
    /* With nothing to move, one address for both is no aliasing (two empty
     * arrays of a language binding may share one). */
    int *zeros = calloc((size_t)size, sizeof(int));
    CHECK_MPI(MPI_Alltoallv(big, zeros, zeros, MPI_INT, big, zeros, zeros, MPI_INT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Alltoall(big, 0, MPI_INT, big, 0, MPI_INT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Allreduce(big, big, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    free(zeros);
    /* The root alone sees a rooted call's receive buffer: it refuses, the
     * others take part, and the root's next, correct call completes theirs
     * (the refused call used no collective sequence number). */
    int rc = MPI_Gather(big, 1, MPI_INT, rank == 0 ? big : NULL, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        expect_class(rc, MPI_ERR_BUFFER, "Gather aliased at the root");
        int *gathered = malloc(sizeof(int) * (size_t)size);
        CHECK_MPI(MPI_Gather(big, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_WORLD));
        for (int i = 0; i < size; ++i) CHECK(gathered[i] == 0, "gathered[%d] = %d", i, gathered[i]);
        free(gathered);
    } else {
        CHECK_MPI(rc);
    }
    still_works("aliased buffers");

    free(big);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("errors: %d ranks OK\n", size);
    MPI_Finalize();
    return 0;
}
