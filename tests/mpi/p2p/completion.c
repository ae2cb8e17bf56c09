/* Wait/Test families: Waitany, Waitsome, Testany, Testsome, Testall with
 * null and completed requests, and MPI_Request_get_status. Rank 0 receives
 * one message from each other rank, released one at a time in a known order. */
#include "support/check.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    int dummy = 0;

    if (rank == 0) {
        int n = size - 1;
        int *vals = calloc((size_t)size, sizeof(int));
        MPI_Request *reqs = malloc((size_t)size * sizeof(MPI_Request));
        reqs[0] = MPI_REQUEST_NULL; /* null requests are skipped */
        for (int i = 1; i <= n; ++i) CHECK_MPI(MPI_Irecv(&vals[i], 1, MPI_INT, i, 0, MPI_COMM_WORLD, &reqs[i]));

        int flag = 1, index = -5;
        CHECK_MPI(MPI_Testany(size, reqs, &index, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag && index == MPI_UNDEFINED, "Testany before any send: flag %d index %d", flag, index);
        CHECK_MPI(MPI_Testall(size, reqs, &flag, MPI_STATUSES_IGNORE));
        CHECK(!flag, "Testall before any send");

        /* Release senders from the highest rank down; Waitany must follow. */
        for (int i = n; i >= 1; --i) {
            CHECK_MPI(MPI_Send(&dummy, 1, MPI_INT, i, 1, MPI_COMM_WORLD));
            MPI_Status st;
            CHECK_MPI(MPI_Waitany(size, reqs, &index, &st));
            CHECK(index == i, "Waitany gave %d, only %d was released", index, i);
            CHECK(st.MPI_SOURCE == i && vals[i] == 10 * i, "Waitany status/data for %d", i);
            CHECK(reqs[i] == MPI_REQUEST_NULL, "Waitany did not free request %d", i);
        }
        CHECK_MPI(MPI_Waitany(size, reqs, &index, MPI_STATUS_IGNORE));
        CHECK(index == MPI_UNDEFINED, "Waitany on all-null gave %d", index);

        /* Waitsome/Testsome: all senders released at once. */
        for (int i = 1; i <= n; ++i) CHECK_MPI(MPI_Irecv(&vals[i], 1, MPI_INT, i, 2, MPI_COMM_WORLD, &reqs[i]));
        int got = 0, outcount;
        int *idx = malloc((size_t)size * sizeof(int));
        MPI_Status *sts = malloc((size_t)size * sizeof(MPI_Status));
        CHECK_MPI(MPI_Testsome(size, reqs, &outcount, idx, sts));
        CHECK(outcount == 0, "Testsome before sends: %d", outcount);
        for (int i = 1; i <= n; ++i) CHECK_MPI(MPI_Send(&dummy, 1, MPI_INT, i, 1, MPI_COMM_WORLD));
        while (got < n) {
            CHECK_MPI(MPI_Waitsome(size, reqs, &outcount, idx, sts));
            CHECK(outcount >= 1, "Waitsome returned %d", outcount);
            for (int k = 0; k < outcount; ++k) {
                CHECK(vals[idx[k]] == 20 * idx[k] && sts[k].MPI_SOURCE == idx[k], "Waitsome entry %d", idx[k]);
                CHECK(reqs[idx[k]] == MPI_REQUEST_NULL, "Waitsome did not free %d", idx[k]);
            }
            got += outcount;
        }
        CHECK_MPI(MPI_Waitsome(size, reqs, &outcount, idx, sts));
        CHECK(outcount == MPI_UNDEFINED, "Waitsome on all-null gave %d", outcount);

        /* Request_get_status does not free; Testall does once all are done. */
        MPI_Request self[2];
        int a = 3, b = 0;
        CHECK_MPI(MPI_Irecv(&b, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &self[0]));
        CHECK_MPI(MPI_Isend(&a, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &self[1]));
        flag = 0;
        while (!flag) CHECK_MPI(MPI_Request_get_status(self[0], &flag, MPI_STATUS_IGNORE));
        CHECK(self[0] != MPI_REQUEST_NULL && b == 3, "Request_get_status");
        flag = 0;
        while (!flag) CHECK_MPI(MPI_Testall(2, self, &flag, MPI_STATUSES_IGNORE));
        CHECK(self[0] == MPI_REQUEST_NULL && self[1] == MPI_REQUEST_NULL, "Testall did not free");
        free(idx);
        free(sts);
        free(vals);
        free(reqs);
    } else {
        for (int phase = 1; phase <= 2; ++phase) {
            CHECK_MPI(MPI_Recv(&dummy, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            int v = 10 * phase * rank;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2 * (phase - 1), MPI_COMM_WORLD));
        }
    }
    MPI_Finalize();
    return 0;
}
