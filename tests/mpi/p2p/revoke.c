/* MPIX_Comm_revoke (FT_CONTRACTS.md "ULFM semantics"): rank 0 revokes a
 * communicator while the others wait on it in a receive nobody will match,
 * a rendezvous send nobody will receive and a collective rank 0 never joins
 * (Bcast, on the collective channel). Every one of those completes with
 * MPIX_ERR_REVOKED; new operations on the communicator fail the same way
 * (also MPI_Irecv's completion, MPI_Probe, MPI_Barrier); a communicator made
 * before and not revoked still works; the agreement (fault-tolerance tags on
 * the collective channel) still runs on the revoked communicator.
 * A second round has a non-zero rank revoke from inside a receive's wait
 * loop of its own (the flood does not depend on rank 0). */
#include "support/check.h"

#include <mpi-ext.h>
#include <stdlib.h>

#define CHECK_REVOKED(call)                                                                                            \
    do {                                                                                                               \
        int e_ = (call);                                                                                               \
        CHECK(error_class(e_) == MPIX_ERR_REVOKED, "%s gave class %d, expected MPIX_ERR_REVOKED", #call,               \
              error_class(e_));                                                                                        \
    } while (0)

enum { BIG = 1 << 20 };

/* Everyone but `initiator` blocks on comm; the initiator revokes once all are
 * waiting (told over MPI_COMM_WORLD). */
static void round_of(MPI_Comm comm, int initiator, char *big) {
    int rank, size, x = 0, flag = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == initiator) {
        for (int i = 0; i < size - 1; ++i)
            CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 100 + initiator, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK_MPI(MPIX_Comm_revoke(comm));
    } else {
        MPI_Request reqs[2];
        MPI_Status sts[2];
        CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, initiator, 1, comm, &reqs[0]));
        CHECK_MPI(MPI_Isend(big, BIG, MPI_CHAR, initiator, 2, comm, &reqs[1])); /* waits for a CTS */
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, initiator, 100 + initiator, MPI_COMM_WORLD));
        CHECK_REVOKED(MPI_Bcast(&x, 1, MPI_INT, initiator, comm));
        int e = MPI_Waitall(2, reqs, sts);
        CHECK(e == MPI_ERR_IN_STATUS, "Waitall gave %d", e);
        for (int i = 0; i < 2; ++i)
            CHECK(error_class(sts[i].MPI_ERROR) == MPIX_ERR_REVOKED, "request %d: class %d", i,
                  error_class(sts[i].MPI_ERROR));
    }
    CHECK_MPI(MPIX_Comm_is_revoked(comm, &flag));
    CHECK(flag == 1, "not revoked");
    /* New operations fail at once: blocking ones return, non-blocking ones
     * start and complete with the error. */
    const int peer = (rank + 1) % size;
    CHECK_REVOKED(MPI_Send(&x, 1, MPI_INT, peer, 3, comm));
    CHECK_REVOKED(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 3, comm, MPI_STATUS_IGNORE));
    CHECK_REVOKED(MPI_Probe(MPI_ANY_SOURCE, 3, comm, MPI_STATUS_IGNORE));
    CHECK_REVOKED(MPI_Barrier(comm));
    MPI_Request r;
    CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, peer, 3, comm, &r));
    CHECK_REVOKED(MPI_Wait(&r, MPI_STATUS_IGNORE));
    /* The agreement uses the fault-tolerance tags: it runs on a revoked comm. */
    flag = rank == 0 ? 0x6 : 0x7;
    CHECK_MPI(MPIX_Comm_agree(comm, &flag));
    CHECK(flag == 0x6, "agree on a revoked comm gave %#x", flag);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char *big = calloc(BIG, 1);

    MPI_Comm first, second, bystander;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &first));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &second));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &bystander));
    round_of(first, 0, big);
    round_of(second, size - 1, big);

    /* Revocation is per communicator. */
    int flag = 1, sum = 0;
    CHECK_MPI(MPIX_Comm_is_revoked(bystander, &flag));
    CHECK(flag == 0, "a communicator nobody revoked is revoked");
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, bystander));
    CHECK(sum == size * (size - 1) / 2, "allreduce on the bystander gave %d", sum);
    CHECK_MPI(MPIX_Comm_is_revoked(MPI_COMM_WORLD, &flag));
    CHECK(flag == 0, "MPI_COMM_WORLD is revoked");

    MPI_Comm_free(&first);
    MPI_Comm_free(&second);
    MPI_Comm_free(&bystander);
    free(big);
    MPI_Finalize();
    return 0;
}
