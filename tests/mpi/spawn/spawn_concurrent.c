/* Every rank spawns two children of its own from MPI_COMM_SELF at the same
 * time (the way Python bindings' tests spawn): each spawn gets its own
 * children, whose parent is that rank alone, and each child answers its
 * parent with its parent's rank. The launcher serves the requests one by
 * one; children of one spawn connect to those of another started earlier. */
#include "spawn_support.h"

#include <stdlib.h>
#include <string.h>

enum { children = 2 };

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int parents = 0, from = -1;
        MPI_Comm_remote_size(parent, &parents);
        CHECK(parents == 1 && size == children, "a child sees %d parents and %d siblings", parents, size);
        CHECK_MPI(MPI_Recv(&from, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE));
        int answer = from * 100 + rank;
        CHECK_MPI(MPI_Send(&answer, 1, MPI_INT, 0, 2, parent));
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    MPI_Comm inter;
    CHECK_MPI(spawn_self(MPI_ARGV_NULL, children, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE));
    for (int c = 0; c < children; ++c) {
        int answer = -1;
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, c, 1, inter));
        CHECK_MPI(MPI_Recv(&answer, 1, MPI_INT, c, 2, inter, MPI_STATUS_IGNORE));
        CHECK(answer == rank * 100 + c, "child %d of rank %d answered %d", c, rank, answer);
    }
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("%d concurrent spawns from MPI_COMM_SELF: ok\n", size);
    MPI_Finalize();
    return 0;
}
