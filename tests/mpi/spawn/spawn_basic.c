/* MPI_Comm_spawn: the parents (every rank of MPI_COMM_WORLD, root 0) start
 * 3 copies of this program; each side checks the intercommunicator's shape,
 * the root sends each child a number and gets it back transformed, both
 * sides merge into one intracommunicator (parents first) and reduce over it,
 * and disconnect. Children find their parents with MPI_Comm_get_parent; a
 * process started by the launcher has none. MPI_UNIVERSE_SIZE is the slots
 * of the job's hosts: here one private daemon with a slot per CPU. */
#include "spawn_support.h"

#include <string.h>

enum { children = 3 };

static void merged_sum(MPI_Comm inter, int high, int parents) {
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(inter, high, &merged));
    int size = 0, rank = 0, one = 1, sum = 0;
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &rank);
    CHECK(size == parents + children, "merged size %d, expected %d", size, parents + children);
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged));
    CHECK(sum == size, "allreduce over the merged communicator gave %d, expected %d", sum, size);
    /* Low side (parents) first. */
    int world_rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    int expected = high ? parents + world_rank : world_rank;
    CHECK(rank == expected, "merged rank %d, expected %d", rank, expected);
    CHECK_MPI(MPI_Comm_free(&merged));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent == MPI_COMM_NULL) {
        int *universe = NULL, flag = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag);
        const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        const int slots = (int)(cpus > size ? cpus : size);
        CHECK(flag && *universe == slots, "MPI_UNIVERSE_SIZE %d, expected %d", flag ? *universe : -1, slots);
        char *args[] = {"child", NULL};
        int codes[children];
        MPI_Comm inter;
        CHECK_MPI(spawn_self(args, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes));
        for (int i = 0; i < children; ++i) CHECK(codes[i] == MPI_SUCCESS, "child %d: error code %d", i, codes[i]);
        int is_inter = 0, remote = 0;
        MPI_Comm_test_inter(inter, &is_inter);
        MPI_Comm_remote_size(inter, &remote);
        CHECK(is_inter && remote == children, "intercommunicator: inter %d, remote size %d", is_inter, remote);
        if (rank == 0) {
            for (int c = 0; c < children; ++c) {
                int v = 100 + c, back = 0;
                CHECK_MPI(MPI_Send(&v, 1, MPI_INT, c, 7, inter));
                CHECK_MPI(MPI_Recv(&back, 1, MPI_INT, c, 8, inter, MPI_STATUS_IGNORE));
                CHECK(back == 2 * v + c, "child %d answered %d, expected %d", c, back, 2 * v + c);
            }
        }
        merged_sum(inter, 0, size);
        CHECK_MPI(MPI_Comm_disconnect(&inter));
        CHECK(inter == MPI_COMM_NULL, "MPI_Comm_disconnect did not set the handle to MPI_COMM_NULL");
        if (rank == 0) printf("spawned %d children from %d parents: ok\n", children, size);
    } else {
        CHECK(argc == 2 && strcmp(argv[1], "child") == 0, "child started without its argument");
        CHECK(size == children, "a child's MPI_COMM_WORLD has %d processes, expected %d", size, children);
        int parents = 0, v = 0;
        MPI_Comm_remote_size(parent, &parents);
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 7, parent, MPI_STATUS_IGNORE));
        int answer = 2 * v + rank;
        CHECK_MPI(MPI_Send(&answer, 1, MPI_INT, 0, 8, parent));
        int sum = 0, one = 1;
        CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        CHECK(sum == children, "the children's MPI_COMM_WORLD reduced to %d", sum);
        merged_sum(parent, 1, parents);
        CHECK_MPI(MPI_Comm_disconnect(&parent));
        MPI_Comm again;
        MPI_Comm_get_parent(&again);
        CHECK(again == MPI_COMM_NULL, "MPI_Comm_get_parent after disconnect is not MPI_COMM_NULL");
    }
    MPI_Finalize();
    return 0;
}
