/* Large messages: 8 and 24 MiB contiguous (rendezvous, read straight into
 * the user's buffer), a 9 MiB strided vector type on both sides, and a
 * truncated receive that reports MPI_ERR_TRUNCATE. */
#include "support/check.h"

#include <stdint.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int peer = rank ^ 1;
    if (peer >= size) {
        MPI_Finalize();
        return 0;
    }
    const long sizes[] = {8L << 20, 24L << 20};
    for (int s = 0; s < 2; ++s) {
        long n = sizes[s] / 8;
        uint64_t *out = malloc((size_t)n * 8), *in = malloc((size_t)n * 8);
        for (long i = 0; i < n; ++i) out[i] = (uint64_t)i * 2654435761u + (uint64_t)rank;
        /* Both directions at once: neither side can block the other. */
        MPI_Request rq[2];
        CHECK_MPI(MPI_Irecv(in, (int)n, MPI_UINT64_T, peer, s, MPI_COMM_WORLD, &rq[0]));
        CHECK_MPI(MPI_Isend(out, (int)n, MPI_UINT64_T, peer, s, MPI_COMM_WORLD, &rq[1]));
        MPI_Status st[2];
        CHECK_MPI(MPI_Waitall(2, rq, st));
        int count;
        MPI_Get_count(&st[0], MPI_UINT64_T, &count);
        CHECK(count == n, "received %d of %ld elements", count, n);
        for (long i = 0; i < n; ++i)
            CHECK(in[i] == (uint64_t)i * 2654435761u + (uint64_t)peer, "element %ld of %ld MiB differs", i,
                  sizes[s] >> 20);
        free(out);
        free(in);
    }

    /* Every other double of a 18 MiB array: non-contiguous on both sides. */
    {
        const int n = 9 << 17; /* doubles per message: 9 MiB of data */
        double *a = malloc((size_t)n * 2 * sizeof(double));
        MPI_Datatype every_other;
        MPI_Type_vector(n, 1, 2, MPI_DOUBLE, &every_other);
        MPI_Type_commit(&every_other);
        if (rank < peer) {
            for (int i = 0; i < 2 * n; ++i) a[i] = i;
            CHECK_MPI(MPI_Send(a, 1, every_other, peer, 9, MPI_COMM_WORLD));
        } else {
            for (int i = 0; i < 2 * n; ++i) a[i] = -1;
            CHECK_MPI(MPI_Recv(a, 1, every_other, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            for (int i = 0; i < n; ++i) {
                CHECK(a[2 * i] == 2.0 * i, "element %d: %g", i, a[2 * i]);
                CHECK(a[2 * i + 1] == -1, "gap %d overwritten", i);
            }
        }
        MPI_Type_free(&every_other);
        free(a);
    }

    /* Truncation: a 1 MiB message into a 1000-byte receive. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    {
        char *big = calloc(1 << 20, 1);
        if (rank < peer) {
            CHECK_MPI(MPI_Send(big, 1 << 20, MPI_BYTE, peer, 10, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Send(big, 5000, MPI_BYTE, peer, 11, MPI_COMM_WORLD));
        } else {
            MPI_Status st;
            int e = MPI_Recv(big, 1000, MPI_BYTE, peer, 10, MPI_COMM_WORLD, &st);
            int cls;
            MPI_Error_class(e, &cls);
            CHECK(cls == MPI_ERR_TRUNCATE, "large truncated receive gave class %d", cls);
            e = MPI_Recv(big, 1000, MPI_BYTE, peer, 11, MPI_COMM_WORLD, &st);
            MPI_Error_class(e, &cls);
            CHECK(cls == MPI_ERR_TRUNCATE, "eager truncated receive gave class %d", cls);
        }
        free(big);
    }
    MPI_Finalize();
    return 0;
}
