/* Failures during the recovery itself: MPIX_Comm_agree
 * and MPIX_Comm_shrink succeed despite a process dying during the call,
 * and every survivor gets the same answer.
 *
 * FT_KILL_AT = agree: rank FT_KILL_RANK dies as the others enter an
 *   agreement; every survivor returns the same flag (the AND of the live
 *   contributions) and the same error class (MPIX_ERR_PROC_FAILED or
 *   success, uniformly); after acknowledging, a second agreement succeeds.
 * FT_KILL_AT = shrink: rank 1 dies first (found by a failed receive,
 *   the comm revoked), then rank FT_KILL_RANK dies as the others enter
 *   MPIX_Comm_shrink; the shrink succeeds at every survivor with the same
 *   size (one or two fewer), and a second shrink leaves exactly the living.
 * On a duplicate of MPI_COMM_WORLD (FT_ON_WORLD=1: MPI_COMM_WORLD itself). */
#include "inject.h"

/* Every member of comm passed the same value v (agreements on v and ~v:
 * the AND of v and of ~v together give AND == OR). Waits until the
 * `failed` dead members of comm are known here and acknowledges them, so
 * the agreements need not report them. */
static void check_uniform(MPI_Comm comm, int v, const char *what, int failed) {
    int and_v = v, and_not = ~v;
    ft_wait_known_failures(comm, failed, 20);
    CHECK_MPI(MPIX_Comm_failure_ack(comm));
    CHECK_MPI(MPIX_Comm_agree(comm, &and_v));
    CHECK_MPI(MPIX_Comm_agree(comm, &and_not));
    CHECK(and_v == v && ~and_not == v, "%s differs between survivors: mine %d, AND %d, OR %d", what, v, and_v,
          ~and_not);
}

static void during_agree(MPI_Comm comm, int rank, int size, int victim) {
    /* Contributions: bit r cleared by rank r; the victim's bit is cleared
     * only if it contributed, which it does not. */
    int flag = ~0 & ~(1 << rank);
    ft_kill_self_at("agree");
    int rc = MPIX_Comm_agree(comm, &flag);
    printf("rank %d: agree returned %s, flag 0x%x\n", rank, error_class_name(rc), (unsigned)flag);
    CHECK(error_class(rc) == MPI_SUCCESS || error_class(rc) == MPIX_ERR_PROC_FAILED, "agree gave %s",
          error_class_name(rc));
    for (int r = 0; r < size; ++r)
        if (r != victim) CHECK(!(flag & (1 << r)), "agree lost rank %d's contribution: 0x%x", r, (unsigned)flag);
    check_uniform(comm, flag, "agree's flag", 1);
    check_uniform(comm, error_class(rc), "agree's return class", 1);
    int again = 1;
    CHECK_MPI(MPIX_Comm_agree(comm, &again));
    CHECK(again == 1, "a second agreement gave %d", again);
}

static void during_shrink(MPI_Comm comm, int rank, int size, int victim) {
    CHECK(victim != 1 && victim != 0, "FT_KILL_RANK must not be 0 or 1 for shrink");
    int x;
    if (rank == 1) ft_die();
    if (rank == 0) {
        CHECK_CLASS(MPI_Recv(&x, 1, MPI_INT, 1, 0, comm, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
        CHECK_MPI(MPIX_Comm_revoke(comm));
    } else {
        /* Wait for rank 0's revoke (nothing is sent with this tag). */
        CHECK_CLASS(MPI_Recv(&x, 1, MPI_INT, 0, 0, comm, MPI_STATUS_IGNORE), MPIX_ERR_REVOKED);
    }
    ft_kill_self_at("shrink");
    MPI_Comm s1, s2;
    double t0 = ft_now();
    CHECK_MPI(MPIX_Comm_shrink(comm, &s1));
    int n1, n2;
    MPI_Comm_size(s1, &n1);
    printf("rank %d: shrink during a failure took %.1f ms, size %d\n", rank, (ft_now() - t0) * 1e3, n1);
    CHECK(n1 == size - 1 || n1 == size - 2, "shrunk size %d of %d", n1, size);
    MPI_Comm_set_errhandler(s1, MPI_ERRORS_RETURN);
    check_uniform(s1, n1, "the shrunk size", n1 - (size - 2));
    CHECK_MPI(MPIX_Comm_revoke(s1));
    CHECK_MPI(MPIX_Comm_shrink(s1, &s2));
    MPI_Comm_size(s2, &n2);
    CHECK(n2 == size - 2, "second shrink: size %d, expected %d", n2, size - 2);
    int one = 1, sum = 0;
    MPI_Comm_set_errhandler(s2, MPI_ERRORS_RETURN);
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, s2));
    CHECK(sum == size - 2, "allreduce over the survivors gave %d", sum);
    MPI_Comm_free(&s2);
    MPI_Comm_free(&s1);
}

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    const char *at = getenv("FT_KILL_AT");
    int victim = ft_kill_rank();
    CHECK(at && victim >= 0 && victim < size && size <= 30, "set FT_KILL_AT=agree|shrink and FT_KILL_RANK");
    MPI_Comm comm = ft_work_comm();
    ft_sync_before_kill(comm, strcmp(at, "shrink") == 0 ? 1 : victim); /* the first to die */
    if (strcmp(at, "agree") == 0)
        during_agree(comm, rank, size, victim);
    else if (strcmp(at, "shrink") == 0)
        during_shrink(comm, rank, size, victim);
    else
        CHECK(0, "unknown FT_KILL_AT=%s", at);
    if (comm != MPI_COMM_WORLD) MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
