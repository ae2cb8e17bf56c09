/* MPI_Comm_spawn's errors and MPI_Comm_spawn_multiple:
 * a program that does not exist ends in MPI_ERR_SPAWN at every parent, with
 * every error code set, and the job goes on; maxprocs 0 is MPI_ERR_ARG (or
 * MPI_ERR_SPAWN), and so is an info "host" that names no daemon of the job;
 * spawn_multiple starts two commands in one MPI_COMM_WORLD
 * whose MPI_APPNUM tells them apart, each in the "wdir" of its info. */
#include "spawn_support.h"

#include <stdlib.h>
#include <string.h>

static void child(MPI_Comm parent, int rank, int size) {
    int *appnum = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    CHECK(flag && appnum != NULL, "no MPI_APPNUM");
    CHECK(size == 3, "children's world of %d, expected 3", size);
    const int expected_app = rank < 1 ? 0 : 1;
    CHECK(*appnum == expected_app, "rank %d has MPI_APPNUM %d, expected %d", rank, *appnum, expected_app);
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    CHECK(strcmp(cwd, expected_app == 0 ? "/tmp" : "/") == 0, "app %d runs in %s", expected_app, cwd);
    int ok = 1, all = 0;
    CHECK_MPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_SUM, parent));
    MPI_Comm_disconnect(&parent);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        child(parent, rank, size);
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm inter = MPI_COMM_WORLD;
    int codes[2] = {-1, -1};
    int rc = MPI_Comm_spawn("/nonexistent/program", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes);
    CHECK(error_class(rc) == MPI_ERR_SPAWN, "spawning a missing program: class %d", error_class(rc));
    CHECK(inter == MPI_COMM_NULL, "a failed spawn left a communicator");
    CHECK(error_class(codes[0]) == MPI_ERR_SPAWN && error_class(codes[1]) == MPI_ERR_SPAWN, "error codes %d %d",
          codes[0], codes[1]);
    char path[4096];
    self_path(path, sizeof path);
    rc = MPI_Comm_spawn(path, MPI_ARGV_NULL, 0, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
    CHECK(error_class(rc) == MPI_ERR_ARG || error_class(rc) == MPI_ERR_SPAWN, "maxprocs 0: class %d", error_class(rc));

    MPI_Info nowhere;
    MPI_Info_create(&nowhere);
    MPI_Info_set(nowhere, "host", "no-such-host.invalid");
    rc = MPI_Comm_spawn(path, MPI_ARGV_NULL, 1, nowhere, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
    CHECK(error_class(rc) == MPI_ERR_SPAWN, "info host naming no daemon: class %d", error_class(rc));
    MPI_Info_free(&nowhere);

    char *commands[2] = {path, path};
    int counts[2] = {1, 2};
    MPI_Info infos[2];
    MPI_Info_create(&infos[0]);
    MPI_Info_set(infos[0], "wdir", "/tmp");
    MPI_Info_create(&infos[1]);
    MPI_Info_set(infos[1], "wdir", "/");
    int many[3];
    CHECK_MPI(MPI_Comm_spawn_multiple(2, commands, MPI_ARGVS_NULL, counts, infos, 0, MPI_COMM_WORLD, &inter, many));
    for (int i = 0; i < 3; ++i) CHECK(many[i] == MPI_SUCCESS, "process %d: code %d", i, many[i]);
    int remote = 0, ok = 1, all = 0;
    MPI_Comm_remote_size(inter, &remote);
    CHECK(remote == 3, "remote size %d", remote);
    CHECK_MPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_SUM, inter));
    CHECK(all == 3, "the children's sum %d", all);
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    MPI_Info_free(&infos[0]);
    MPI_Info_free(&infos[1]);
    if (rank == 0) printf("spawn errors and spawn_multiple: ok\n");
    MPI_Finalize();
    return 0;
}
