/* Communicator creation does not hang on a failed member: the last rank
 * leaves without MPI_Finalize (a failed process to its peers); the others'
 * MPI_Comm_dup and MPI_Comm_split over MPI_COMM_WORLD return an error
 * (MPIX_ERR_PROC_FAILED) instead of waiting for it forever, while a
 * communicator without the failed rank still works. */
#include "support/check.h"

#include <mpi-ext.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(size >= 3, "needs at least 3 ranks");

    /* The survivors' communicator, made while everyone is alive. */
    MPI_Comm survivors;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == size - 1 ? MPI_UNDEFINED : 0, rank, &survivors));
    /* Everyone talks to everyone once, so every connection exists. */
    for (int peer = 0; peer < size; ++peer) {
        int out = rank, in = -1;
        CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, peer, 1, &in, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(in == peer, "exchange with %d", peer);
    }
    if (rank == size - 1) _exit(0); /* dies without MPI_Finalize */

    MPI_Comm dup = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && dup == MPI_COMM_NULL, "Comm_dup with a dead member succeeded");
    CHECK(cls == MPIX_ERR_PROC_FAILED, "Comm_dup with a dead member: class %d, expected MPIX_ERR_PROC_FAILED", cls);

    MPI_Comm half = MPI_COMM_NULL;
    rc = MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPIX_ERR_PROC_FAILED, "Comm_split with a dead member: class %d", cls);

    /* Without the dead rank everything still works. */
    MPI_Comm again;
    CHECK_MPI(MPI_Comm_dup(survivors, &again));
    int n;
    MPI_Comm_size(again, &n);
    CHECK(n == size - 1, "survivors' dup has %d ranks", n);
    CHECK_MPI(MPI_Comm_free(&again));
    CHECK_MPI(MPI_Comm_free(&survivors));
    MPI_Finalize();
    return 0;
}
