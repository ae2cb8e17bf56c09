/* A rank killed during communicator creation (ULFM
 * mode): MPI_Comm_dup / MPI_Comm_split return at every survivor — an error
 * of a process-failure class where the new communicator could not be made,
 * never a hang — and the survivors then agree on the outcome, revoke and
 * shrink, and the shrunk communicator works (a split of it too).
 * FT_KILL_AT = dup | split, FT_KILL_RANK = the victim. */
#include "inject.h"

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    const char *at = getenv("FT_KILL_AT");
    int victim = ft_kill_rank();
    CHECK(at && (strcmp(at, "dup") == 0 || strcmp(at, "split") == 0) && victim >= 0 && victim < size,
          "set FT_KILL_AT=dup|split and FT_KILL_RANK");

    /* A few constructions that must work before the failure. */
    for (int i = 0; i < 3; ++i) {
        MPI_Comm c;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        CHECK_MPI(MPI_Comm_free(&c));
    }

    ft_sync_before_kill(MPI_COMM_WORLD, victim);
    ft_kill_self_at(at);
    MPI_Comm made = MPI_COMM_NULL;
    double t0 = ft_now();
    int rc = strcmp(at, "dup") == 0 ? MPI_Comm_dup(MPI_COMM_WORLD, &made)
                                    : MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &made);
    printf("rank %d: %s returned %s after %.1f ms\n", rank, at, error_class_name(rc), (ft_now() - t0) * 1e3);
    CHECK(ft_ok_or_failed(rc), "%s gave %d (%s)", at, rc, error_class_name(rc));
    CHECK(rc == MPI_SUCCESS || made == MPI_COMM_NULL, "a failed %s returned a communicator", at);
    if (error_class(rc) == MPIX_ERR_PROC_FAILED) CHECK_MPI(MPIX_Comm_revoke(MPI_COMM_WORLD));

    int flag = (rc == MPI_SUCCESS);
    int arc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(error_class(arc) == MPI_SUCCESS || error_class(arc) == MPIX_ERR_PROC_FAILED, "agree gave %s",
          error_class_name(arc));
    if (made != MPI_COMM_NULL) MPI_Comm_free(&made);

    CHECK_MPI(MPIX_Comm_revoke(MPI_COMM_WORLD));
    MPI_Comm shrunk, half;
    CHECK_MPI(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk));
    MPI_Comm_set_errhandler(shrunk, MPI_ERRORS_RETURN);
    int nsize;
    MPI_Comm_size(shrunk, &nsize);
    CHECK(nsize == size - 1, "shrunk size %d, expected %d", nsize, size - 1);
    /* Constructors on the survivors work again. */
    CHECK_MPI(MPI_Comm_split(shrunk, rank % 2, rank, &half));
    int hsize, want = 0, sum = 0, one = 1;
    for (int r = 0; r < size; ++r)
        if (r != victim && r % 2 == rank % 2) ++want;
    MPI_Comm_size(half, &hsize);
    CHECK(hsize == want, "split of the shrunk communicator: size %d, expected %d", hsize, want);
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half));
    CHECK(sum == want, "allreduce on the split gave %d", sum);
    MPI_Comm_free(&half);
    MPI_Comm_free(&shrunk);
    MPI_Finalize();
    return 0;
}
