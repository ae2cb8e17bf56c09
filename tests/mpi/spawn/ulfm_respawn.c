/* The ULFM recipe for replacing a dead process (comm mode ulfm): rank 1 of
 * MPI_COMM_WORLD dies; the survivors revoke and shrink, spawn one
 * replacement from the shrunk communicator, merge with it, and put it back
 * in the dead rank's place with MPI_Comm_split. The rebuilt communicator has
 * the old size and order, and an allreduce over it is right. */
#include "spawn_support.h"

#include <mpi-ext.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

enum { victim = 1 };

static void check_rebuilt(MPI_Comm merged, int key, int size) {
    MPI_Comm rebuilt;
    CHECK_MPI(MPI_Comm_split(merged, 0, key, &rebuilt));
    int n = 0, me = -1, sum = 0;
    MPI_Comm_size(rebuilt, &n);
    MPI_Comm_rank(rebuilt, &me);
    CHECK(n == size && me == key, "rebuilt communicator: size %d rank %d, expected %d and %d", n, me, size, key);
    CHECK_MPI(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, rebuilt));
    CHECK(sum == size * (size - 1) / 2, "allreduce over the rebuilt communicator: %d", sum);
    MPI_Comm_free(&rebuilt);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        CHECK(argc == 3 && strcmp(argv[1], "replaces") == 0, "replacement started without its arguments");
        MPI_Comm merged;
        CHECK_MPI(MPI_Intercomm_merge(parent, 1, &merged));
        int old_size = 0;
        MPI_Comm_size(merged, &old_size);
        check_rebuilt(merged, atoi(argv[2]), old_size);
        printf("replacement of rank %s joined: ok\n", argv[2]);
        MPI_Comm_free(&merged);
        MPI_Comm_free(&parent);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim) {
        fflush(stdout);
        raise(SIGKILL);
    }
    int dummy = 0;
    int rc = MPI_Recv(&dummy, 1, MPI_INT, victim, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED || error_class(rc) == MPIX_ERR_REVOKED,
          "receive from the dead rank: class %d", error_class(rc));
    MPIX_Comm_revoke(MPI_COMM_WORLD);
    MPI_Comm shrunk;
    CHECK_MPI(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk));
    char which[16];
    snprintf(which, sizeof which, "%d", victim);
    char *args[] = {"replaces", which, NULL};
    MPI_Comm inter, merged;
    int code = -1;
    CHECK_MPI(spawn_self(args, 1, MPI_INFO_NULL, 0, shrunk, &inter, &code));
    CHECK(code == MPI_SUCCESS, "the replacement's error code %d", code);
    CHECK_MPI(MPI_Intercomm_merge(inter, 0, &merged));
    check_rebuilt(merged, rank, size);
    if (rank == 0) printf("rank %d replaced through MPI_Comm_spawn: ok\n", victim);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&shrunk);
    MPI_Finalize();
    return 0;
}
