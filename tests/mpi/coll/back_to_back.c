/*
 * Back-to-back collectives where the root runs ahead: 300 Bcasts of 8 B to
 * 96 KiB from rank 0 with nothing in between, so the receivers find many
 * messages of consecutive collective tags already queued (the pattern of every
 * benchmark loop). Then the same through Ibcast with 32 requests in flight.
 * Every message is checked (its first and last int carry the call number).
 */
#include "check.h"

#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    enum { CALLS = 300, WINDOW = 32 };
    static const int sizes[] = {2, 1024, 8192, 12288, 24576}; /* ints: 8 B … 96 KiB */
    int *buf = malloc(sizeof(int) * 24576 * WINDOW);

    for (int s = 0; s < 5; ++s) {
        const int n = sizes[s];
        for (int call = 0; call < CALLS; ++call) {
            buf[0] = buf[n - 1] = rank == 0 ? call : -1;
            CHECK_MPI(MPI_Bcast(buf, n, MPI_INT, 0, MPI_COMM_WORLD));
            CHECK(buf[0] == call && buf[n - 1] == call, "Bcast %d of %d ints: got %d/%d", call, n, buf[0], buf[n - 1]);
        }
        MPI_Request req[WINDOW];
        for (int call = 0; call < CALLS; call += WINDOW) {
            for (int w = 0; w < WINDOW; ++w) {
                int *b = buf + (size_t)w * n;
                b[0] = b[n - 1] = rank == 0 ? call + w : -1;
                CHECK_MPI(MPI_Ibcast(b, n, MPI_INT, 0, MPI_COMM_WORLD, &req[w]));
            }
            CHECK_MPI(MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE));
            for (int w = 0; w < WINDOW; ++w) {
                int *b = buf + (size_t)w * n;
                CHECK(b[0] == call + w && b[n - 1] == call + w, "Ibcast %d of %d ints: got %d/%d", call + w, n, b[0],
                      b[n - 1]);
            }
        }
    }
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("back_to_back: %d ranks OK\n", size);
    MPI_Finalize();
    return 0;
}
