/* Passive target: exclusive and shared locks, lock_all with flush, the
 * atomicity of accumulates (every rank adds 1 a thousand times to one
 * counter at rank 0), a ticket counter with MPI_Fetch_and_op (every ticket
 * handed out exactly once), and a spin lock built on MPI_Compare_and_swap
 * protecting a non-atomic read-modify-write. */
#include "rma_test.h"

#define ROUNDS  1000
#define TICKETS 50

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    long *mem = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(8 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    rma_errors_return(win);
    for (int i = 0; i < 8; ++i) mem[i] = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 1. Exclusive lock: each rank writes its slot at the last rank, reads it back. */
    const int target = size - 1;
    long v = rank + 10, back = -1;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
    CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, target, rank % 8, 1, MPI_LONG, win));
    CHECK_MPI(MPI_Win_flush(target, win));
    CHECK_MPI(MPI_Get(&back, 1, MPI_LONG, target, rank % 8, 1, MPI_LONG, win));
    CHECK_MPI(MPI_Win_unlock(target, win));
    if (size <= 8) CHECK(back == v, "read back %ld, wrote %ld", back, v);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 2. Shared locks: everybody reads rank 0's slot 0 at once. */
    if (rank == 0) {
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        mem[0] = 4242;
        CHECK_MPI(MPI_Win_unlock(0, win));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Get(&back, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win));
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK(back == 4242, "shared read %ld", back);
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) mem[0] = 0;
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

    /* 3. Accumulate atomicity under lock_all, with flushes along the way. */
    const long one = 1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < ROUNDS; ++i) {
        CHECK_MPI(MPI_Accumulate(&one, 1, MPI_LONG, 0, 1, 1, MPI_LONG, MPI_SUM, win));
        if (i % 100 == 99) CHECK_MPI(MPI_Win_flush(0, win));
    }
    CHECK_MPI(MPI_Win_flush_all(win));
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) CHECK(mem[1] == (long)ROUNDS * size, "counter %ld, expected %ld", mem[1], (long)ROUNDS * size);

    /* 4. Tickets with Fetch_and_op: all of 0..TICKETS*size-1 exactly once. */
    long tickets[TICKETS];
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < TICKETS; ++i) {
        CHECK_MPI(MPI_Fetch_and_op(&one, &tickets[i], MPI_LONG, 0, 2, MPI_SUM, win));
        CHECK_MPI(MPI_Win_flush(0, win));
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    long *all = malloc(sizeof(long) * TICKETS * size);
    CHECK_MPI(MPI_Gather(tickets, TICKETS, MPI_LONG, all, TICKETS, MPI_LONG, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        char *seen = calloc((size_t)TICKETS * size, 1);
        for (int i = 0; i < TICKETS * size; ++i) {
            CHECK(all[i] >= 0 && all[i] < TICKETS * size && !seen[all[i]], "ticket %ld twice or out of range", all[i]);
            seen[all[i]] = 1;
        }
        free(seen);
    }
    free(all);

    /* 5. A spin lock on slot 3 (CAS 0 -> rank+1) guarding a plain get/put increment of slot 4. */
    const long zero = 0, me = rank + 1;
    CHECK_MPI(MPI_Win_lock_all(0, win));
    for (int i = 0; i < 20; ++i) {
        long old = -1;
        do {
            CHECK_MPI(MPI_Compare_and_swap(&me, &zero, &old, MPI_LONG, 0, 3, win));
            CHECK_MPI(MPI_Win_flush(0, win));
        } while (old != 0);
        long x = -1;
        CHECK_MPI(MPI_Get(&x, 1, MPI_LONG, 0, 4, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        ++x;
        CHECK_MPI(MPI_Put(&x, 1, MPI_LONG, 0, 4, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK_MPI(MPI_Compare_and_swap(&zero, &me, &old, MPI_LONG, 0, 3, win));
        CHECK_MPI(MPI_Win_flush(0, win));
        CHECK(old == me, "lock word was %ld while held by %ld", old, me);
    }
    CHECK_MPI(MPI_Win_unlock_all(win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) CHECK(mem[4] == 20L * size, "guarded counter %ld, expected %ld", mem[4], 20L * size);

    /* 6. Request-based operations complete with their requests. */
    MPI_Request reqs[2];
    long got = -1, add = 2;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_MPI(MPI_Raccumulate(&add, 1, MPI_LONG, 0, 5, 1, MPI_LONG, MPI_SUM, win, &reqs[0]));
    CHECK_MPI(MPI_Rget(&got, 1, MPI_LONG, 0, 4, 1, MPI_LONG, win, &reqs[1]));
    CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
    CHECK(got == 20L * size, "Rget %ld", got);
    CHECK_MPI(MPI_Win_unlock(0, win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) CHECK(mem[5] == 2L * size, "Raccumulate total %ld", mem[5]);

    CHECK_MPI(MPI_Win_free(&win));
    MPI_Finalize();
    return 0;
}
