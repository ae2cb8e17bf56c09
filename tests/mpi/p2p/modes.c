/* Send modes: synchronous (an Issend does not complete before its receive
 * is posted), buffered (Buffer_attach/detach, MPI_ERR_BUFFER when full),
 * ready, and the non-blocking forms; small and large messages. */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

static void fill(int *p, int n, int seed) {
    for (int i = 0; i < n; ++i) p[i] = seed * 1000003 + i;
}
static int verify(const int *p, int n, int seed) {
    for (int i = 0; i < n; ++i)
        if (p[i] != seed * 1000003 + i) return 0;
    return 1;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int sizes[] = {1, 1000, 100000}; /* the last one is a rendezvous */
    int *buf = malloc((2 * 100000 + 2 * MPI_BSEND_OVERHEAD) * sizeof(int));
    int go = 0;

    for (int s = 0; s < 3; ++s) {
        int n = sizes[s];
        if (rank == 0) {
            /* Synchronous: not complete until rank 1 says it posted the receive. */
            fill(buf, n, s);
            MPI_Request req;
            CHECK_MPI(MPI_Issend(buf, n, MPI_INT, 1, 10, MPI_COMM_WORLD, &req));
            int flag = 1;
            for (int i = 0; i < 50; ++i) CHECK_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            CHECK(!flag, "Issend of %d ints completed before the receive was posted", n);
            CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 11, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Ssend(buf, n, MPI_INT, 1, 12, MPI_COMM_WORLD));

            /* Ready: rank 1 posted its receive before telling us to go. */
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 1, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Rsend(buf, n, MPI_INT, 1, 14, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Irsend(buf, n, MPI_INT, 1, 15, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));

            /* Buffered: completes locally, the buffer may be reused at once. */
            int bufsize = (n * (int)sizeof(int) + MPI_BSEND_OVERHEAD) * 2;
            char *attached = malloc((size_t)bufsize);
            CHECK_MPI(MPI_Buffer_attach(attached, bufsize));
            CHECK_MPI(MPI_Bsend(buf, n, MPI_INT, 1, 16, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Ibsend(buf, n, MPI_INT, 1, 17, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            memset(buf, 0, (size_t)n * sizeof(int));
            /* A message larger than the whole attached buffer never fits. */
            int e = MPI_Bsend(buf, 2 * n + 2 * MPI_BSEND_OVERHEAD, MPI_INT, 1, 18, MPI_COMM_WORLD);
            int cls;
            MPI_Error_class(e, &cls);
            CHECK(cls == MPI_ERR_BUFFER, "oversized Bsend gave class %d", cls);
            void *detached;
            int detached_size;
            CHECK_MPI(MPI_Buffer_detach(&detached, &detached_size));
            CHECK(detached == attached && detached_size == bufsize, "detach returned another buffer");
            free(attached);
        } else if (rank == 1) {
            int *in = calloc((size_t)n, sizeof(int));
            CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Recv(in, n, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(verify(in, n, s), "Issend data (%d ints)", n);
            memset(in, 0, (size_t)n * sizeof(int));
            CHECK_MPI(MPI_Recv(in, n, MPI_INT, 0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(verify(in, n, s), "Ssend data (%d ints)", n);

            int *in2 = calloc((size_t)n, sizeof(int));
            MPI_Request rr[2];
            CHECK_MPI(MPI_Irecv(in, n, MPI_INT, 0, 14, MPI_COMM_WORLD, &rr[0]));
            CHECK_MPI(MPI_Irecv(in2, n, MPI_INT, 0, 15, MPI_COMM_WORLD, &rr[1]));
            CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 0, 13, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE));
            CHECK(verify(in, n, s) && verify(in2, n, s), "Rsend data (%d ints)", n);

            memset(in, 0, (size_t)n * sizeof(int));
            memset(in2, 0, (size_t)n * sizeof(int));
            CHECK_MPI(MPI_Recv(in, n, MPI_INT, 0, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK_MPI(MPI_Recv(in2, n, MPI_INT, 0, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(verify(in, n, s) && verify(in2, n, s), "Bsend data (%d ints)", n);
            free(in);
            free(in2);
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
