/* Helpers of the ULFM tests: the checks of support/check.h, ending only this
 * rank (with failures around, MPI_Abort is no way to report), and the
 * failure-detection step the tests start from. Plain C, header only. */
#ifndef ULFM_TEST_H
#define ULFM_TEST_H

#define CHECK_ENDS_RANK_ONLY
#include "support/check.h"

#include <mpi-ext.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>

/* Dies here, for real. */
static inline void die_now(void) {
    fflush(stdout);
    raise(SIGKILL);
}

/* Returns once this process knows `victim` (a rank of comm) failed: a
 * receive from it ends with MPIX_ERR_PROC_FAILED (it never sends) — or
 * with MPIX_ERR_REVOKED when `or_revoked` and another survivor already
 * revoked comm (it knew first). */
static inline void wait_for_failure_or(MPI_Comm comm, int victim, int or_revoked) {
    int dummy;
    int rc = MPI_Recv(&dummy, 1, MPI_INT, victim, 999, comm, MPI_STATUS_IGNORE);
    CHECK(error_class(rc) == MPIX_ERR_PROC_FAILED || (or_revoked && error_class(rc) == MPIX_ERR_REVOKED),
          "recv from dead rank %d: class %d", victim, error_class(rc));
}
static inline void wait_for_failure_of(MPI_Comm comm, int victim) {
    wait_for_failure_or(comm, victim, 0);
}

/* Ranks (in comm) of a group of comm's processes, sorted by group order. */
static inline int group_ranks_in(MPI_Group g, MPI_Comm comm, int *out, int max) {
    int n = 0;
    MPI_Group_size(g, &n);
    if (n > max) n = max;
    MPI_Group cg;
    MPI_Comm_group(comm, &cg);
    int idx[64];
    for (int i = 0; i < n; ++i) idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, cg, out);
    MPI_Group_free(&cg);
    return n;
}

#endif
