/* A spawned process that dies before MPI_Init (comm mode ulfm): its
 * siblings' MPI_Init and the parents' MPI_Comm_spawn still succeed, the dead
 * one's error code is MPIX_ERR_PROC_FAILED, a receive from it fails with
 * that class, and the live children answer. (FTMPI_RANK is where ftmpirun
 * tells a process its rank before MPI_Init.) */
#include "spawn_support.h"

#include <mpi-ext.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

enum { children = 3, victim = 1 };

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        const char *r = getenv("FTMPI_RANK");
        if (r != NULL && atoi(r) == victim) raise(SIGKILL);
    }
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        CHECK(rank != victim, "the victim lived");
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE));
        v += rank;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, parent));
        MPI_Comm_free(&parent);
        MPI_Finalize();
        return 0;
    }
    char *args[] = {"child", NULL};
    MPI_Comm inter;
    int codes[children];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_MPI(spawn_self(args, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes));
    for (int c = 0; c < children; ++c)
        CHECK(error_class(codes[c]) == (c == victim ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS), "child %d: code class %d", c,
              error_class(codes[c]));
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    if (rank == 0) {
        int dummy = 0;
        int rc = MPI_Recv(&dummy, 1, MPI_INT, victim, 5, inter, MPI_STATUS_IGNORE);
        CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED, "receive from the dead child: class %d", error_class(rc));
        for (int c = 0; c < children; ++c) {
            if (c == victim) continue;
            int v = 10;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, c, 1, inter));
            CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, c, 2, inter, MPI_STATUS_IGNORE));
            CHECK(v == 10 + c, "child %d answered %d", c, v);
        }
        printf("a child dead before MPI_Init is a failed process of the intercommunicator: ok\n");
    }
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
