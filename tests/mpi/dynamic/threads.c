/* Ports and threads (MPI_THREAD_MULTIPLE): rank 0 opens two ports and
 * accepts on both at once from two threads, over MPI_COMM_SELF; ranks 1
 * and 2 each connect to one of them. Then rank 0 closes a third port and
 * computes outside MPI while rank 1 connects to it: the progress thread
 * runs the listener, which refuses the connection (MPI_ERR_PORT) before
 * rank 0 comes back. Needs 3 ranks. */
#include "support/check.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

static char ports[3][MPI_MAX_PORT_NAME];

static void *accept_one(void *arg) {
    const int i = (int)(long)arg;
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_accept(ports[i], MPI_INFO_NULL, 0, MPI_COMM_SELF, &c));
    int who = -1;
    CHECK_MPI(MPI_Recv(&who, 1, MPI_INT, 0, 4, c, MPI_STATUS_IGNORE));
    CHECK(who == i + 1, "port %d accepted rank %d", i, who);
    CHECK_MPI(MPI_Send(&i, 1, MPI_INT, 0, 5, c));
    CHECK_MPI(MPI_Comm_free(&c));
    return NULL;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK(provided == MPI_THREAD_MULTIPLE, "thread level %d", provided);
    CHECK(size == 3, "needs 3 ranks");

    if (rank == 0)
        for (int i = 0; i < 3; ++i) CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, ports[i]));
    CHECK_MPI(MPI_Bcast(ports, (int)sizeof ports, MPI_CHAR, 0, MPI_COMM_WORLD));

    if (rank == 0) {
        pthread_t t[2];
        for (long i = 0; i < 2; ++i) CHECK(pthread_create(&t[i], NULL, accept_one, (void *)i) == 0, "thread");
        for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
    } else {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_connect(ports[rank - 1], MPI_INFO_NULL, 0, MPI_COMM_SELF, &c));
        int got = -1;
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, 0, 4, c));
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 5, c, MPI_STATUS_IGNORE));
        CHECK(got == rank - 1, "connected to port %d", got);
        CHECK_MPI(MPI_Comm_free(&c));
    }

    /* Rank 0 out of MPI while its listener refuses a closed port. */
    if (rank == 0) CHECK_MPI(MPI_Close_port(ports[2]));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        const double until = now() + 1.0;
        volatile double x = 0;
        while (now() < until) x += 1; /* computing, not in MPI */
        int refused_at_once = 0;
        CHECK_MPI(MPI_Recv(&refused_at_once, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(refused_at_once, "the refusal waited for rank 0 to come back into MPI");
    } else if (rank == 1) {
        MPI_Comm c = MPI_COMM_WORLD;
        const double t0 = now();
        CHECK_CLASS(MPI_Comm_connect(ports[2], MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT);
        int refused_at_once = now() - t0 < 0.9;
        CHECK_MPI(MPI_Send(&refused_at_once, 1, MPI_INT, 0, 6, MPI_COMM_WORLD));
    }

    if (rank == 0) {
        CHECK_MPI(MPI_Close_port(ports[0]));
        CHECK_MPI(MPI_Close_port(ports[1]));
        printf("dynamic threads: ok\n");
    }
    MPI_Finalize();
    return 0;
}
