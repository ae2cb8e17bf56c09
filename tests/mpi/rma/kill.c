/* A process killed (SIGKILL) during an epoch: the survivors'
 * synchronisation that involves it returns the failure class of the
 * communicator's mode (MPIX_ERR_PROC_FAILED in ULFM, MPI_ERR_OTHER in the
 * FT-MPI modes) instead of blocking, operations between survivors still
 * work, MPIX_Win_get_failed
 * names it, and freeing the window ends. The victim is FT_KILL_RANK; where
 * it dies is FT_RMA_AT:
 *   lock    while every survivor holds a shared lock on it (flush and
 *           unlock fail; survivors still lock each other)
 *   fence   inside a fence epoch (the closing fence fails everywhere)
 *   holder  while it holds an exclusive lock on rank 0 that another rank
 *           waits for (the waiter is granted the lock once the target
 *           learns of the failure)
 *   pscw    as an origin of rank 0's exposure epoch and as a target rank 2
 *           wants to access (rank 0's wait and rank 2's start fail; rank 2's
 *           epoch on rank 0 works) */
#include "inject.h"

/* What a survivor may see from a call racing the failure: success, the
 * failure class of the communicator's mode, or a revoke. */
static int ok_or_failed_in_mode(int code, MPI_Comm comm) {
    const int c = error_class(code);
    return c == MPI_SUCCESS || c == ft_failure_class(comm) || c == MPIX_ERR_REVOKED;
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Comm comm = ft_init_work(&argc, &argv, &rank, &size);
    const int victim = ft_kill_rank();
    CHECK(victim > 0 && victim < size && size >= 3, "FT_KILL_RANK=%d with %d ranks", victim, size);
    const char *at = getenv("FT_RMA_AT");
    const int in_lock = at && strcmp(at, "lock") == 0, in_fence = at && strcmp(at, "fence") == 0;
    const int in_holder = at && strcmp(at, "holder") == 0;
    long *mem = NULL;
    MPI_Win win;
    CHECK_MPI(MPI_Win_allocate(16 * sizeof(long), sizeof(long), MPI_INFO_NULL, comm, &mem, &win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    const long v = rank + 1;
    const int other = rank == 0 ? size - 1 : 0; /* a survivor this one talks to after the failure */
    CHECK(other != victim, "pick a victim other than 0 and the last rank");

    if (in_lock) {
        if (rank != victim) CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, victim, 0, win));
        ft_sync_before_kill(comm, victim);
        if (rank == victim) {
            printf("rank %d: dying while the others hold a lock on me\n", rank);
            ft_die();
        }
        const int put = MPI_Put(&v, 1, MPI_LONG, victim, rank, 1, MPI_LONG, win);
        CHECK(ok_or_failed_in_mode(put, comm), "put gave %s", error_class_name(put));
        /* Wait until the failure is known here, then flush must report it. */
        MPI_Group failed;
        int n = 0;
        for (double deadline = MPI_Wtime() + 20; n == 0 && MPI_Wtime() < deadline;) {
            CHECK_MPI(MPIX_Win_get_failed(win, &failed));
            MPI_Group_size(failed, &n);
            MPI_Group_free(&failed);
        }
        CHECK(n == 1, "the victim's failure was not noticed in 20 s");
        const int flush = MPI_Win_flush(victim, win);
        CHECK(error_class(flush) == ft_failure_class(comm), "flush of the dead target gave %s",
              error_class_name(flush));
        const int unlock = MPI_Win_unlock(victim, win);
        CHECK(error_class(unlock) == ft_failure_class(comm), "unlock of the dead target gave %s",
              error_class_name(unlock));
        printf("rank %d: unlock returned %s\n", rank, error_class_name(unlock));
        /* Survivors still reach each other. */
        long back = -1;
        CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, other, 0, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, other, 8 + rank, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_flush(other, win));
        CHECK_MPI(MPI_Get(&back, 1, MPI_LONG, other, 8 + rank, 1, MPI_LONG, win));
        CHECK_MPI(MPI_Win_unlock(other, win));
        CHECK(back == v, "survivor read back %ld", back);
    } else if (in_holder) {
        CHECK(victim != 2, "the waiter is rank 2");
        if (rank == victim) CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        ft_sync_before_kill(comm, victim);
        if (rank == victim) {
            printf("rank %d: dying while holding an exclusive lock on rank 0\n", rank);
            ft_die();
        }
        if (rank == 2) {
            long back = -1;
            CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, 0, 3, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_flush(0, win));
            CHECK_MPI(MPI_Get(&back, 1, MPI_LONG, 0, 3, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_unlock(0, win));
            CHECK(back == v, "read back %ld under the dead holder's lock", back);
            printf("rank %d: got the lock the dead rank held\n", rank);
        }
    } else if (!in_fence) {
        CHECK(victim == 1 && size == 3, "pscw: 3 ranks, victim 1");
        MPI_Group world_group, origins, target0, target1;
        MPI_Comm_group(comm, &world_group);
        const int both[2] = {1, 2}, zero_rank = 0, one_rank = 1;
        MPI_Group_incl(world_group, 2, both, &origins);
        MPI_Group_incl(world_group, 1, &zero_rank, &target0);
        MPI_Group_incl(world_group, 1, &one_rank, &target1);
        ft_sync_before_kill(comm, victim);
        if (rank == victim) {
            printf("rank %d: dying before my access and exposure epochs\n", rank);
            ft_die();
        }
        if (rank == 0) {
            CHECK_MPI(MPI_Win_post(origins, 0, win));
            const int wait = MPI_Win_wait(win);
            CHECK(error_class(wait) == ft_failure_class(comm), "wait for a dead origin gave %s",
                  error_class_name(wait));
            CHECK(mem[2] == 3, "rank 2's put in the exposure epoch: %ld", mem[2]);
            printf("rank %d: wait returned %s\n", rank, error_class_name(wait));
        } else {
            CHECK_MPI(MPI_Win_start(target0, 0, win));
            CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, 0, 2, 1, MPI_LONG, win));
            CHECK_MPI(MPI_Win_complete(win));
            const int start = MPI_Win_start(target1, 0, win);
            CHECK(error_class(start) == ft_failure_class(comm), "start on a dead target gave %s",
                  error_class_name(start));
            printf("rank %d: start returned %s\n", rank, error_class_name(start));
        }
        MPI_Group_free(&world_group);
        MPI_Group_free(&origins);
        MPI_Group_free(&target0);
        MPI_Group_free(&target1);
    } else {
        CHECK_MPI(MPI_Win_fence(0, win));
        CHECK_MPI(MPI_Put(&v, 1, MPI_LONG, (rank + 1) % size, rank, 1, MPI_LONG, win));
        ft_sync_before_kill(comm, victim);
        if (rank == victim) {
            printf("rank %d: dying inside a fence epoch\n", rank);
            ft_die();
        }
        const int fence = MPI_Win_fence(0, win);
        CHECK(error_class(fence) == ft_failure_class(comm), "fence gave %s", error_class_name(fence));
        printf("rank %d: fence returned %s\n", rank, error_class_name(fence));
        /* The window stays broken for fences: the next one fails too. */
        const int again = MPI_Win_fence(0, win);
        CHECK(ok_or_failed_in_mode(again, comm) && again != MPI_SUCCESS, "second fence gave %s",
              error_class_name(again));
    }
    /* Every survivor learns of the failure (some scenarios do not need the
     * victim after its death, so wait for the notice with a deadline). */
    MPI_Group failed = MPI_GROUP_NULL;
    int n = 0, in_world = -1, zero = 0;
    for (double deadline = MPI_Wtime() + 20;;) {
        CHECK_MPI(MPIX_Win_get_failed(win, &failed));
        MPI_Group_size(failed, &n);
        if (n != 0 || MPI_Wtime() > deadline) break;
        MPI_Group_free(&failed);
    }
    CHECK(n == 1, "%d failed processes in the window", n);
    MPI_Group world;
    MPI_Comm_group(comm, &world);
    MPI_Group_translate_ranks(failed, 1, &zero, world, &in_world);
    CHECK(in_world == victim, "the failed process is rank %d, not %d", in_world, victim);
    MPI_Group_free(&world);
    MPI_Group_free(&failed);
    const int fr = MPI_Win_free(&win);
    CHECK(ok_or_failed_in_mode(fr, comm) && win == MPI_WIN_NULL, "free gave %s", error_class_name(fr));
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
