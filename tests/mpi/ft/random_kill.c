/* Kills at a random point drawn from a printed seed
 * (FT_SEED=s repeats a run): the ranks run a mix of operations (a ring
 * exchange, bcast, allreduce, barrier), and at a random iteration either
 * one random rank kills itself (FT_VICTIMS=1) or a random rank kills
 * FT_VICTIMS others back to back with kill(pid, SIGKILL). The survivors
 * leave the loop with an error (revoking so nobody waits on them), agree,
 * shrink to exactly the living, and check the failure attributes of the
 * communicator (a duplicate of MPI_COMM_WORLD; FT_ON_WORLD=1: MPI_COMM_WORLD
 * itself): FT_MPI_LIST_NUM_FAILED / FT_MPI_LIST_FAILED name exactly
 * the victims. With the ordered notifier (FTMPI_NOTIFIER=ordered,
 * ftmpirun --ordered-notifier) every survivor must list them in the same
 * order: the lists are compared with an allgather on the shrunk
 * communicator. */
#include "inject.h"

enum { ITERS = 40, MAXP = 64 };

static int op_at(MPI_Comm comm, int it, int rank, int size) {
    int x = 0, sum = 0, rc;
    switch (it % 4) {
    case 0: {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size, mine = rank * 100 + it;
        rc = MPI_Sendrecv(&mine, 1, MPI_INT, next, it, &x, 1, MPI_INT, prev, it, comm, MPI_STATUS_IGNORE);
        CHECK(rc != MPI_SUCCESS || x == prev * 100 + it, "ring it %d got %d", it, x);
        return rc;
    }
    case 1:
        x = (rank == it % size) ? it * 7 : -1;
        rc = MPI_Bcast(&x, 1, MPI_INT, it % size, comm);
        CHECK(rc != MPI_SUCCESS || x == it * 7, "bcast it %d got %d", it, x);
        return rc;
    case 2:
        x = rank + it;
        rc = MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comm);
        CHECK(rc != MPI_SUCCESS || sum == size * (size - 1) / 2 + size * it, "allreduce it %d got %d", it, sum);
        return rc;
    default: return MPI_Barrier(comm);
    }
}

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    const char *nv = getenv("FT_VICTIMS");
    const char *notifier = getenv("FTMPI_NOTIFIER");
    int nvictims = nv ? atoi(nv) : 1, ordered = notifier && strcmp(notifier, "ordered") == 0;
    CHECK(size <= MAXP && nvictims >= 1 && nvictims < size - 1, "FT_VICTIMS=%d with %d ranks", nvictims, size);
    int pids[MAXP];
    ft_exchange_pids(MPI_COMM_WORLD, pids);
    MPI_Comm comm = ft_work_comm();
    ft_seed();

    /* The draw, the same on every rank: victims, killer, iteration. */
    int is_victim[MAXP] = {0}, order[MAXP], killer = -1;
    for (int i = 0; i < nvictims; ++i) {
        int v;
        do v = ft_random(size);
        while (is_victim[v]);
        is_victim[v] = 1;
        order[i] = v;
    }
    if (nvictims > 1) do
            killer = ft_random(size);
        while (is_victim[killer]);
    int kill_it = 1 + ft_random(ITERS - 2);
    if (rank == 0) {
        printf("iteration %d (%s): ", kill_it, (const char *[]){"ring", "bcast", "allreduce", "barrier"}[kill_it % 4]);
        for (int i = 0; i < nvictims; ++i) printf("rank %d%s", order[i], i + 1 < nvictims ? ", " : "");
        if (killer >= 0)
            printf(" killed by rank %d\n", killer);
        else
            printf(" kills itself\n");
        fflush(stdout);
    }

    int it, rc = MPI_SUCCESS;
    for (it = 0; it < ITERS && rc == MPI_SUCCESS; ++it) {
        if (it == kill_it) {
            /* Everyone has finished the iterations before the kill (a rank
             * may otherwise run ahead and kill while others still need the
             * victims for an earlier operation). */
            ft_sync_before_kill(comm, killer >= 0 ? killer : order[0]);
            if (killer < 0 && is_victim[rank]) ft_die();
            if (rank == killer)
                for (int i = 0; i < nvictims; ++i) ft_kill_pid(pids[order[i]]);
        }
        rc = op_at(comm, it, rank, size);
        CHECK(it < kill_it || ft_ok_or_failed(rc), "it %d gave %s", it, error_class_name(rc));
        CHECK(it >= kill_it || rc == MPI_SUCCESS, "it %d before any kill gave %s", it, error_class_name(rc));
    }
    if (error_class(rc) == MPIX_ERR_PROC_FAILED) MPIX_Comm_revoke(comm);
    int flag = (rc == MPI_SUCCESS);
    int arc = MPIX_Comm_agree(comm, &flag);
    CHECK(error_class(arc) == MPI_SUCCESS || error_class(arc) == MPIX_ERR_PROC_FAILED, "agree gave %s",
          error_class_name(arc));
    CHECK(!flag, "every survivor finished all iterations although ranks died at iteration %d", kill_it);
    CHECK_MPI(MPIX_Comm_revoke(comm));
    MPI_Comm shrunk;
    CHECK_MPI(MPIX_Comm_shrink(comm, &shrunk));
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    int nsize;
    MPI_Comm_size(shrunk, &nsize);
    CHECK(nsize == size - nvictims, "shrunk to %d ranks, expected %d", nsize, size - nvictims);

    /* The failure attributes: exactly the victims, each once. */
    ft_wait_known_failures(comm, nvictims, 20);
    int *num = NULL, *list = NULL, found;
    CHECK_MPI(MPI_Comm_get_attr(comm, FT_MPI_LIST_NUM_FAILED, &num, &found));
    CHECK(found && num && *num == nvictims, "FT_MPI_LIST_NUM_FAILED: found %d, value %d, expected %d", found,
          num ? *num : -1, nvictims);
    CHECK_MPI(MPI_Comm_get_attr(comm, FT_MPI_LIST_FAILED, &list, &found));
    CHECK(found && list, "FT_MPI_LIST_FAILED not found");
    int mine[MAXP], all[MAXP * MAXP];
    for (int i = 0; i < nvictims; ++i) {
        mine[i] = list[i];
        CHECK(list[i] >= 0 && list[i] < size && is_victim[list[i]], "FT_MPI_LIST_FAILED[%d] = %d is no victim", i,
              list[i]);
        for (int j = 0; j < i; ++j) CHECK(list[j] != list[i], "rank %d listed twice", list[i]);
    }
    CHECK_MPI(MPI_Allgather(mine, nvictims, MPI_INT, all, nvictims, MPI_INT, shrunk));
    int same = 1;
    for (int r = 0; r < nsize; ++r)
        for (int i = 0; i < nvictims; ++i) same &= all[r * nvictims + i] == mine[i];
    if (rank == killer || (killer < 0 && rank == (order[0] == 0 ? 1 : 0))) {
        printf("failures as listed here:");
        for (int i = 0; i < nvictims; ++i) printf(" %d", mine[i]);
        printf("; the same order at every survivor: %s\n", same ? "yes" : "no");
    }
    if (ordered) CHECK(same, "with the ordered notifier the survivors listed the failures in different orders");
    MPI_Comm_free(&shrunk);
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
