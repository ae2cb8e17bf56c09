/* MPI_THREAD_MULTIPLE: several threads per rank ping-pong at once with their
 * own tags (eager and rendezvous sizes), plus one thread receiving with
 * MPI_ANY_TAG what the others send to self. Pairs: rank r with r^1. */
#include "support/check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS  200

static int rank, size, peer;

static void *pingpong(void *arg) {
    int t = (int)(long)arg;
    int n = t % 2 ? 20000 : 4; /* ints: 80 KB rendezvous or 16 B eager */
    int *buf = malloc((size_t)n * sizeof(int));
    for (int round = 0; round < ROUNDS; ++round) {
        if (rank < peer) {
            for (int i = 0; i < n; ++i) buf[i] = round * 31 + t + i;
            CHECK_MPI(MPI_Send(buf, n, MPI_INT, peer, t, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(buf, n, MPI_INT, peer, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(buf[0] == round * 31 + t + 1 && buf[n - 1] == round * 31 + t + n, "thread %d round %d", t, round);
        } else {
            MPI_Status st;
            CHECK_MPI(MPI_Recv(buf, n, MPI_INT, peer, t, MPI_COMM_WORLD, &st));
            CHECK(st.MPI_TAG == t && buf[0] == round * 31 + t, "thread %d round %d got %d", t, round, buf[0]);
            for (int i = 0; i < n; ++i) buf[i] += 1;
            CHECK_MPI(MPI_Send(buf, n, MPI_INT, peer, t, MPI_COMM_WORLD));
        }
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    int main_flag = 0;
    MPI_Is_thread_main(&main_flag);
    CHECK(main_flag, "main thread not recognised");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = rank ^ 1;
    if (peer < size) {
        pthread_t th[THREADS];
        for (long t = 0; t < THREADS; ++t) pthread_create(&th[t], NULL, pingpong, (void *)t);
        for (int t = 0; t < THREADS; ++t) pthread_join(th[t], NULL);
    }
    MPI_Finalize();
    return 0;
}
