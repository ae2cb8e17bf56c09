/* Invalid arguments return the right error class under MPI_ERRORS_RETURN
 * (and nothing is sent): rank, tag, count, datatype, communicator, request. */
#include "support/check.h"

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 0;
    MPI_Request req = MPI_REQUEST_NULL;

    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Recv(&x, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, 0, -1, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Isend(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Recv(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Irecv(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Send(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    CHECK_CLASS(MPI_Send(&x, 1, uncommitted, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Type_free(&uncommitted);
    CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_NULL, MPI_STATUS_IGNORE), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Probe(0, 0, MPI_COMM_NULL, MPI_STATUS_IGNORE), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Start(&req), MPI_ERR_REQUEST);
    CHECK_CLASS(MPI_Request_free(&req), MPI_ERR_REQUEST);
    CHECK(req == MPI_REQUEST_NULL, "a failed Isend/Irecv set the request");
    int bad_flag;
    MPI_Request null_req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Test(&null_req, &bad_flag, MPI_STATUS_IGNORE));
    CHECK(bad_flag, "Test of MPI_REQUEST_NULL must say complete");

    /* After all those errors, communication still works (nothing stray was sent). */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, got = -1;
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, next, 0, &got, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(got == prev, "ring after errors: %d", got);
    int flag = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "a failed call left a message behind");
    MPI_Finalize();
    return 0;
}
