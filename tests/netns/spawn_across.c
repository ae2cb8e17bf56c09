/* MPI_Comm_spawn across hosts: the parents (one rank on each of hosts 0 and
 * 1) spawn one child on host 2 and one on host 1 (info "host": the daemon's
 * address, given as argv[1] and argv[2]); the children reach every parent
 * over the network (their wire-up is the DRD's), answer rank 0 with their
 * rank, and everybody reduces over the merged communicator. Prints
 * "spawn across hosts: ok" at rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond, what)                                                                                              \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "FAILED: %s\n", what);                                                                     \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                              \
        }                                                                                                              \
    } while (0)

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm parent, inter, merged;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        CHECK(MPI_Send(&rank, 1, MPI_INT, 0, 1, parent) == MPI_SUCCESS, "a child's send");
        CHECK(MPI_Intercomm_merge(parent, 1, &merged) == MPI_SUCCESS, "a child's merge");
    } else {
        CHECK(argc == 3, "usage: spawn_across HOST_FOR_CHILD_0 HOST_FOR_CHILD_1");
        char path[4096];
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        CHECK(n > 0, "readlink /proc/self/exe");
        path[n] = '\0';
        char *commands[2] = {path, path};
        int counts[2] = {1, 1};
        MPI_Info infos[2];
        for (int i = 0; i < 2; ++i) {
            MPI_Info_create(&infos[i]);
            MPI_Info_set(infos[i], "host", argv[1 + i]);
        }
        int codes[2] = {-1, -1};
        CHECK(MPI_Comm_spawn_multiple(2, commands, MPI_ARGVS_NULL, counts, infos, 0, MPI_COMM_WORLD, &inter, codes) ==
                  MPI_SUCCESS,
              "spawn_multiple");
        CHECK(codes[0] == MPI_SUCCESS && codes[1] == MPI_SUCCESS, "error codes");
        if (rank == 0)
            for (int c = 0; c < 2; ++c) {
                int got = -1;
                CHECK(MPI_Recv(&got, 1, MPI_INT, c, 1, inter, MPI_STATUS_IGNORE) == MPI_SUCCESS && got == c,
                      "a child's answer");
            }
        CHECK(MPI_Intercomm_merge(inter, 0, &merged) == MPI_SUCCESS, "merge");
        for (int i = 0; i < 2; ++i) MPI_Info_free(&infos[i]);
    }
    int one = 1, sum = 0;
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged) == MPI_SUCCESS && sum == 4, "allreduce over 4");
    if (parent == MPI_COMM_NULL && rank == 0) printf("spawn across hosts: ok\n");
    MPI_Comm_free(&merged);
    MPI_Finalize();
    return 0;
}
