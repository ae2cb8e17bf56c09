/* Head-to-head eager floods: every rank first sends 2 000 messages of
 * 16 KiB to its partner with MPI_Send, and only then receives the
 * partner's. Far more than a shared-memory ring holds, so sends find the
 * driver's queue busy and wait for their bytes to be written: they must
 * still complete (the partner, itself blocked in MPI_Send, takes the
 * messages in unmatched), in order, with the right contents. */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

#define MESSAGES 2000
#define BYTES    16384

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    const int partner = rank ^ 1;
    if (partner >= size) {
        MPI_Finalize();
        return 0;
    }
    unsigned char *buf = malloc(BYTES);
    for (int i = 0; i < MESSAGES; ++i) {
        memset(buf, (i + rank) & 0xff, BYTES);
        CHECK_MPI(MPI_Send(buf, BYTES, MPI_BYTE, partner, i, MPI_COMM_WORLD));
    }
    for (int i = 0; i < MESSAGES; ++i) {
        MPI_Status st;
        CHECK_MPI(MPI_Recv(buf, BYTES, MPI_BYTE, partner, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_TAG == i, "message %d arrived with tag %d (out of order)", i, st.MPI_TAG);
        const unsigned char want = (i + partner) & 0xff;
        CHECK(buf[0] == want && buf[BYTES - 1] == want, "message %d holds %d..%d, not %d", i, buf[0], buf[BYTES - 1],
              want);
    }
    free(buf);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Finalize();
    return 0;
}
