/* MPI_Intercomm_create with an intercommunicator as peer_comm: rank 0 of
 * the parents spawns 2 children over MPI_COMM_SELF, and then both worlds
 * join in one intercommunicator with that spawn intercommunicator as the
 * leaders' peer (remote_leader 0: the other side's rank 0), as MPICH's
 * spaiccreate does. The other parents pass MPI_COMM_NULL, which is allowed:
 * peer_comm matters at the leader only. Each child sends its rank to parent
 * rank 1 (or 0) over the new intercommunicator. */
#include "spawn_support.h"

enum { children = 2 };

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm parent, inter = MPI_COMM_NULL, joined;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent == MPI_COMM_NULL && rank == 0) {
        char *args[] = {"child", NULL};
        CHECK_MPI(spawn_self(args, children, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter, MPI_ERRCODES_IGNORE));
    } else if (parent != MPI_COMM_NULL) {
        inter = parent;
    }
    CHECK_MPI(MPI_Intercomm_create(MPI_COMM_WORLD, 0, inter, 0, 123, &joined));
    int remote = 0, is_inter = 0;
    MPI_Comm_test_inter(joined, &is_inter);
    MPI_Comm_remote_size(joined, &remote);
    if (parent == MPI_COMM_NULL) {
        CHECK(is_inter && remote == children, "parents: inter %d, remote size %d", is_inter, remote);
        if (rank == size - 1)
            for (int c = 0; c < children; ++c) {
                int got = -1;
                CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, c, 5, joined, MPI_STATUS_IGNORE));
                CHECK(got == c, "from child %d got %d", c, got);
            }
    } else {
        CHECK(is_inter && remote > 0, "children: inter %d, remote size %d", is_inter, remote);
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, remote - 1, 5, joined));
    }
    CHECK_MPI(MPI_Comm_free(&joined));
    if (inter != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_disconnect(&inter));
    if (parent == MPI_COMM_NULL && rank == 0) printf("intercommunicator through a spawn intercommunicator: ok\n");
    MPI_Finalize();
    return 0;
}
