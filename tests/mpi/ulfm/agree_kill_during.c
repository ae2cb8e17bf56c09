/* A rank is killed while the others are inside MPIX_Comm_agree: the root
 * of the agreement's tree (rank 0), an inner node (rank 2) or a leaf (the
 * last rank), chosen by argv[1], dies right after entering the agreement
 * (MPIX_Comm_iagree, then SIGKILL: its first messages may or may not have
 * left); with "before", a leaf dies just before the call, so nobody has
 * noticed it when the others enter. Every survivor must return the same
 * code and the same flag, and the flag must have every survivor's bit
 * cleared. When the victim's contribution did not make it (its bit is still
 * set), it is in the agreed failed set and nobody acknowledged it: the code
 * must be MPIX_ERR_PROC_FAILED. The survivors compare their results over a
 * shrunk communicator. */
#include "ulfm_test.h"

#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int victim = size - 1;
    if (argc > 1 && strcmp(argv[1], "root") == 0) victim = 0;
    if (argc > 1 && strcmp(argv[1], "inner") == 0) victim = 2 % size;
    MPI_Barrier(MPI_COMM_WORLD);

    const int before = argc > 1 && strcmp(argv[1], "before") == 0;
    int flag = ~(1 << rank);
    if (rank == victim) {
        MPI_Request req;
        if (!before) MPIX_Comm_iagree(MPI_COMM_WORLD, &flag, &req);
        die_now();
    }
    int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    int cls = error_class(rc);
    CHECK(cls == MPI_SUCCESS || cls == MPIX_ERR_PROC_FAILED, "agree: class %d", cls);
    for (int r = 0; r < size; ++r)
        if (r != victim) CHECK((flag & (1 << r)) == 0, "flag %#x keeps survivor %d's bit", flag, r);
    if (before)
        CHECK(flag & (1 << victim), "the victim's bit %d was cleared though it never called (flag %#x)", victim, flag);
    if (flag & (1 << victim))
        CHECK(cls == MPIX_ERR_PROC_FAILED,
              "the victim %d is left out (flag %#x) and nobody acknowledged it, but class %d", victim, flag, cls);

    MPI_Comm survivors;
    rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &survivors);
    CHECK(rc == MPI_SUCCESS, "shrink: class %d", error_class(rc));
    int n = 0;
    MPI_Comm_size(survivors, &n);
    CHECK(n == size - 1, "shrunk size %d", n);
    int mine[2] = {flag, cls}, all[2 * 64];
    CHECK(MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, survivors) == MPI_SUCCESS, "allgather");
    for (int i = 0; i < n; ++i)
        CHECK(all[2 * i] == flag && all[2 * i + 1] == cls, "survivor %d got flag %#x class %d, I got %#x %d", i,
              all[2 * i], all[2 * i + 1], flag, cls);
    if (rank == (victim == 0 ? 1 : 0))
        printf("agree_kill_during(victim %d): %d survivors agree on %#x, class %d\n", victim, n, flag, cls);
    MPI_Comm_free(&survivors);
    MPI_Finalize();
    return 0;
}
