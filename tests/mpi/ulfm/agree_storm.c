/* Many agreements in a row while ranks die at random points among them:
 * argv[1] victims (ranks 1, 3, 5, … below size) each die after a number of
 * agreements drawn from the seed (argv[2], printed), in the middle of the
 * stream. Every survivor folds each result (flag, code) into a running
 * hash; at the end the survivors shrink and compare hashes: every
 * agreement of the stream must have given every survivor the same answer.
 * Each agreement's flag also keeps every survivor's bit cleared. */
#include "ulfm_test.h"

#include <stdint.h>

#define ROUNDS 120

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const int victims = argc > 1 ? atoi(argv[1]) : 1;
    unsigned seed = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1u;
    if (rank == 0) printf("agree_storm: seed %u, %d victims\n", seed, victims);
    int die_at[32];
    srand(seed);
    for (int r = 0; r < size && r < 32; ++r) die_at[r] = -1;
    for (int v = 0; v < victims && 2 * v + 1 < size; ++v) die_at[2 * v + 1] = 10 + rand() % (ROUNDS - 20);
    MPI_Barrier(MPI_COMM_WORLD);

    uint64_t hash = 1469598103934665603ull;
    for (int round = 0; round < ROUNDS; ++round) {
        int flag = ~(1 << (rank % 30));
        if (round == die_at[rank]) {
            /* Half the time inside the agreement, half just before it. */
            if (rand() % 2) {
                MPI_Request req;
                MPIX_Comm_iagree(MPI_COMM_WORLD, &flag, &req);
            }
            die_now();
        }
        int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
        int cls = error_class(rc);
        CHECK(cls == MPI_SUCCESS || cls == MPIX_ERR_PROC_FAILED, "round %d: class %d", round, cls);
        CHECK((flag & (1 << (rank % 30))) == 0, "round %d: flag %#x keeps my bit", round, flag);
        if (cls == MPIX_ERR_PROC_FAILED) MPIX_Comm_failure_ack(MPI_COMM_WORLD);
        hash = (hash ^ (uint64_t)(uint32_t)flag) * 1099511628211ull;
        hash = (hash ^ (uint64_t)cls) * 1099511628211ull;
    }

    MPI_Comm survivors;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &survivors) == MPI_SUCCESS, "shrink");
    int n = 0;
    MPI_Comm_size(survivors, &n);
    int expect = size;
    for (int r = 0; r < size && r < 32; ++r)
        if (die_at[r] >= 0) --expect;
    CHECK(n == expect, "shrunk size %d, want %d", n, expect);
    uint64_t all[64];
    CHECK(MPI_Allgather(&hash, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, survivors) == MPI_SUCCESS, "allgather");
    for (int i = 0; i < n; ++i) CHECK(all[i] == hash, "survivor %d saw another stream of results", i);
    if (rank == 0) printf("agree_storm: %d survivors, %d agreements each, identical results\n", n, ROUNDS);
    MPI_Comm_free(&survivors);
    MPI_Finalize();
    return 0;
}
