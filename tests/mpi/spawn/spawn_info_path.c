/* The reserved info key "path" (MPI-3.1 §10.3.4): a program named without a
 * directory is looked for in the directories the key lists (':'-separated,
 * the first that has it wins, relative ones from the spawner's working
 * directory) before the daemon's PATH, as MPICH's spawn tests expect. The
 * parent spawns 2 copies of this program by its bare name with the key
 * naming a missing directory and then its own, then 1 more through
 * MPI_Comm_spawn_multiple with "." after moving into its directory; each
 * child answers a number over the intercommunicator. */
#include "spawn_support.h"

#include <libgen.h>
#include <string.h>

static void talk_to_children(MPI_Comm inter, int n) {
    for (int c = 0; c < n; ++c) {
        int v = 10 + c, back = 0;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, c, 1, inter));
        CHECK_MPI(MPI_Recv(&back, 1, MPI_INT, c, 2, inter, MPI_STATUS_IGNORE));
        CHECK(back == v + 1, "child %d answered %d, expected %d", c, back, v + 1);
    }
    CHECK_MPI(MPI_Comm_disconnect(&inter));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent != MPI_COMM_NULL) {
        int v = 0;
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE));
        v += 1;
        CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, parent));
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return 0;
    }
    char self[4096], dir_buf[4096], base_buf[4096];
    self_path(self, sizeof self);
    strcpy(dir_buf, self);
    strcpy(base_buf, self);
    const char *dir = dirname(dir_buf);
    char *base = basename(base_buf);

    char search[4200];
    snprintf(search, sizeof search, "/nonexistent-ftmpi-dir:%s", dir);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "path", search);
    char *args[] = {"child", NULL};
    int codes[2] = {-1, -1};
    MPI_Comm inter;
    CHECK_MPI(MPI_Comm_spawn(base, args, 2, info, 0, MPI_COMM_WORLD, &inter, codes));
    CHECK(codes[0] == MPI_SUCCESS && codes[1] == MPI_SUCCESS, "error codes %d %d", codes[0], codes[1]);
    talk_to_children(inter, 2);

    CHECK(chdir(dir) == 0, "cannot enter %s", dir);
    MPI_Info_set(info, "path", ".");
    int one = 1;
    char **argvs[] = {args};
    CHECK_MPI(MPI_Comm_spawn_multiple(1, &base, argvs, &one, &info, 0, MPI_COMM_WORLD, &inter, codes));
    talk_to_children(inter, 1);
    MPI_Info_free(&info);
    if (rank == 0) printf("spawned by name through the info key \"path\": ok\n");
    MPI_Finalize();
    return 0;
}
