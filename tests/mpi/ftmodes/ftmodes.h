/* Helpers shared by the FT-MPI mode tests (SHRINK, BLANK,
 * REBUILD): run until a failure shows, then recover through a constructor.
 * Kills come from tests/mpi/ft/inject.h (real SIGKILLs). */
#ifndef FTMODES_H
#define FTMODES_H

#include "inject.h"

/* Allreduce(SUM) of `mine` over comm until a call fails (a member died) or
 * `max_iters` passed; returns the number of successful iterations and kills
 * FT_KILL_RANK at the start of iteration FT_KILL_ITER (default 3). */
static inline int ftm_run_until_failure(MPI_Comm comm, int mine, int max_iters) {
    const char *at = getenv("FT_KILL_ITER");
    const int kill_iter = at && *at ? atoi(at) : 3;
    int i;
    for (i = 0; i < max_iters; ++i) {
        if (i == kill_iter && ft_kill_rank() >= 0) {
            /* Every rank leaves the previous allreduce before the victim
             * dies: a failure notice is applied ahead of unread frames, so
             * the victim's last messages could be dropped at one survivor
             * only, which would then recover while the others wait in the
             * next allreduce for it (seen once in a clean-clone run). */
            ft_sync_before_kill(comm, ft_kill_rank());
            if (ft_kill_rank() == ft_rank()) {
                printf("rank %d: killing myself at iteration %d\n", ft_rank(), i);
                ft_die();
            }
        }
        int sum = 0;
        int rc = MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, comm);
        if (rc != MPI_SUCCESS) {
            CHECK(error_class(rc) == ft_failure_class(comm), "allreduce at iteration %d gave %s", i,
                  error_class_name(rc));
            return i;
        }
    }
    return i;
}

/* The first half of a SHRINK or BLANK test: FT_KILL_RANK (which must name a
 * rank) dies during ftm_run_until_failure and the survivors see it fail.
 * Returns the victim; *iters is the number of iterations before the failure. */
static inline int ftm_lose_victim(int rank, int size, int *iters) {
    const int victim = ft_kill_rank();
    CHECK(victim >= 0 && victim < size, "FT_KILL_RANK must name a rank");
    *iters = ftm_run_until_failure(MPI_COMM_WORLD, rank, 1000);
    CHECK(*iters < 1000, "no failure seen");
    return victim;
}

/* A communicator constructor as the recovery point: MPI_Comm_dup, or the
 * one FT_RECOVER_WITH names (split, create); a failure during the recovery
 * shows as an error, and the next call recovers that one too. */
static inline int ftm_construct(MPI_Comm comm, MPI_Comm *out) {
    const char *with = getenv("FT_RECOVER_WITH");
    if (with && strcmp(with, "split") == 0) {
        int rank;
        MPI_Comm_rank(comm, &rank);
        return MPI_Comm_split(comm, 0, rank, out);
    }
    if (with && strcmp(with, "create") == 0) {
        /* The group is read before the call: the recovery inside it may
         * change comm's group, and a gap or a dead member is simply left
         * out of the new communicator. */
        MPI_Group g;
        MPI_Comm_group(comm, &g);
        int rc = MPI_Comm_create(comm, g, out);
        MPI_Group_free(&g);
        return rc;
    }
    return MPI_Comm_dup(comm, out);
}

static inline MPI_Comm ftm_recover(MPI_Comm comm) {
    MPI_Comm out = MPI_COMM_NULL;
    int attempt;
    for (attempt = 0; attempt < 8; ++attempt) {
        int rc = ftm_construct(comm, &out);
        if (rc == MPI_SUCCESS) return out;
        CHECK(error_class(rc) == ft_failure_class(comm), "MPI_Comm_dup gave %s", error_class_name(rc));
    }
    CHECK(0, "no recovery after %d attempts", attempt);
    return MPI_COMM_NULL;
}

#endif
