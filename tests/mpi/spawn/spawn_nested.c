/* Spawning from part of a job, and from spawned processes: the last rank of
 * MPI_COMM_WORLD alone spawns two children, which spawn a grandchild
 * together (root 1 of their MPI_COMM_WORLD). A value travels grandchild →
 * children → the spawning rank and back down; the other parents take no part
 * but every process still finalizes with all of them connected. */
#include "spawn_support.h"

#include <string.h>

static void grandchild(MPI_Comm parent) {
    int size = 0;
    MPI_Comm_remote_size(parent, &size);
    CHECK(size == 2, "the grandchild's parents: %d", size);
    int v = 5;
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 1, parent));
    CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 2, parent, MPI_STATUS_IGNORE));
    CHECK(v == 5 * 2 * 3 + 1, "the grandchild got %d back", v);
    CHECK_MPI(MPI_Comm_disconnect(&parent));
}

static void child(MPI_Comm parent, int rank, const char *path) {
    char *args[] = {"grandchild", NULL};
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_spawn(path, args, 1, MPI_INFO_NULL, 1, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE));
    if (rank == 1) {
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE));
        v *= 2;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 3, parent));
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 4, parent, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, inter));
    }
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    CHECK_MPI(MPI_Comm_disconnect(&parent));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    char path[4096];
    self_path(path, sizeof path);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        if (argc > 1 && strcmp(argv[1], "grandchild") == 0)
            grandchild(parent);
        else
            child(parent, rank, path);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm alone;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == size - 1, 0, &alone));
    if (rank == size - 1) {
        MPI_Comm inter;
        CHECK_MPI(MPI_Comm_spawn(path, MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, alone, &inter, MPI_ERRCODES_IGNORE));
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 3, inter, MPI_STATUS_IGNORE));
        v = v * 3 + 1;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 4, inter));
        CHECK_MPI(MPI_Comm_disconnect(&inter));
        printf("nested spawn from rank %d of %d: ok\n", rank, size);
    }
    MPI_Comm_free(&alone);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
