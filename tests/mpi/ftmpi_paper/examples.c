/* The FT-MPI paper's Examples 1, 2 and 3 as the paper writes them (Fagg & Dongarra,
 * "Building and using a fault tolerant MPI implementation"):
 * after a failure a call returns MPI_ERR_OTHER, the failure details are the
 * communicator's attributes FT_MPI_LIST_NUM_FAILED / FT_MPI_LIST_FAILED
 * (failures in the order detected) and FT_MPI_COM_NUM_FAILED /
 * FT_MPI_COM_FAILED (failures per rank), and MPI_Comm_dup is the collective
 * recovery. Run in the SHRINK and BLANK comm modes; rank FT_KILL_RANK
 * SIGKILLs itself once every rank is ready.
 *
 * The fragments differ from the paper's text only where it is not C: the
 * attribute values are pointers (`*num_failed`), MPI_Comm_dup takes
 * `&newcom`, and the elided arguments are written out. Around them the
 * program checks what it got, so it fails when the behaviour is wrong. */
#include <mpi.h> /* FT-MPI's names come with mpi.h alone, as under FT-MPI */

#include "inject.h"

_Static_assert(MPI_OTHER_ERR == MPI_ERR_OTHER, "Example 4's spelling of MPI_ERR_OTHER");

int main(int argc, char **argv) {
    int rank, size, key, key2, flag, i, x = 0;
    int *num_failed = NULL, *failed_ptr = NULL;
    MPI_Status status;
    MPI_Comm com, newcom, ulfm_com;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &com); /* inherits the launch's comm mode and the handler */
    /* The same failure on a communicator put in ULFM mode is reported with
     * ULFM's code (FT_CONTRACTS.md, "Error codes"). */
    MPI_Comm_dup(MPI_COMM_WORLD, &ulfm_com);
    CHECK_MPI(FTMPI_Comm_set_mode(ulfm_com, FTMPI_COMM_MODE_ULFM, FTMPI_MSG_MODE_CONT));

    const int victim = ft_kill_rank();
    CHECK(victim > 0 && victim < size, "FT_KILL_RANK must name a rank other than 0");
    ft_sync_before_kill(com, victim);
    if (rank == victim) {
        printf("rank %d: killing myself\n", rank);
        ft_die();
    }

    /* ---- Example 1. Checking for order of failures ---- */
    /* pre-defined key value */
    key = FT_MPI_LIST_NUM_FAILED; /* key for finding number of failure events */
    key2 = FT_MPI_LIST_FAILED;    /* key for getting pointer to failures in a list */

    int rc = MPI_Recv(&x, 1, MPI_INT, victim, 1, com, &status); /* MPI_func (comm...) */
    CHECK(rc == MPI_ERR_OTHER, "a receive from the dead rank returned %d (%s), expected MPI_ERR_OTHER", rc,
          error_class_name(rc));
    int seen = 0;
    if (rc == MPI_ERR_OTHER) {
        rc = MPI_Comm_get_attr(com, key, &num_failed, &flag);
        CHECK(rc == MPI_SUCCESS && flag && num_failed != NULL, "FT_MPI_LIST_NUM_FAILED missing");
        rc = MPI_Comm_get_attr(com, key2, &failed_ptr, &flag);
        CHECK(rc == MPI_SUCCESS && flag && failed_ptr != NULL, "FT_MPI_LIST_FAILED missing");
        for (i = 0; i < *num_failed; i++) printf("failure %d was rank %d\n", i + 1, failed_ptr[i]);
        seen = 1;
    }
    CHECK(seen && *num_failed == 1 && failed_ptr[0] == victim, "Example 1: %d failures, the first rank %d", *num_failed,
          failed_ptr[0]);

    /* ---- Example 2. Accessing failures via process RANK ---- */
    key = FT_MPI_COM_NUM_FAILED; /* key for finding how many individual ranks failed */
    key2 = FT_MPI_COM_FAILED;    /* key for accessing complete failure map of a communicator */

    int failed_how_many_times = -1;
    rc = MPI_Send(&x, 1, MPI_INT, victim, 2, com);
    CHECK(rc == MPI_ERR_OTHER, "a send to the dead rank returned %d (%s)", rc, error_class_name(rc));
    if (rc == MPI_ERR_OTHER) {
        rc = MPI_Comm_get_attr(com, key, &num_failed, &flag);
        CHECK(rc == MPI_SUCCESS && flag && num_failed != NULL, "FT_MPI_COM_NUM_FAILED missing");
        rc = MPI_Comm_get_attr(com, key2, &failed_ptr, &flag);
        CHECK(rc == MPI_SUCCESS && flag && failed_ptr != NULL, "FT_MPI_COM_FAILED missing");
        /* check list of failures */
        failed_how_many_times = failed_ptr[victim];
    }
    CHECK(*num_failed == 1, "Example 2: %d ranks failed, expected 1", *num_failed);
    CHECK(failed_how_many_times == 1, "Example 2: the dead rank failed %d times", failed_how_many_times);
    for (i = 0; i < size; i++)
        CHECK(i == victim || failed_ptr[i] == 0, "Example 2: live rank %d failed %d times", i, failed_ptr[i]);

    /* The ULFM-mode communicator sees the same failure with ULFM's code. */
    rc = MPI_Send(&x, 1, MPI_INT, victim, 2, ulfm_com);
    CHECK(rc == MPIX_ERR_PROC_FAILED, "a send to the dead rank on the ULFM-mode comm returned %d (%s)", rc,
          error_class_name(rc));
    MPI_Comm_free(&ulfm_com);
    /* An array completion says the same in the request's status. */
    MPI_Request req;
    MPI_Status st[1];
    CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, victim, 5, com, &req));
    rc = MPI_Waitall(1, &req, st);
    CHECK(rc == MPI_ERR_IN_STATUS && st[0].MPI_ERROR == MPI_ERR_OTHER,
          "MPI_Waitall on a receive from the dead rank returned %d, status %d", rc, st[0].MPI_ERROR);

    /* ---- Example 3. Simple FT-MPI send usage ---- */
    int recovered = 0;
    rc = MPI_Send(&x, 1, MPI_INT, victim, 3, com);
    if (rc == MPI_ERR_OTHER) {
        MPI_Comm_dup(com, &newcom); /* collective recovery occurs here! */
        MPI_Comm_free(&com);
        com = newcom;
        recovered = 1;
    }
    /* continue.. */
    CHECK(recovered, "Example 3: the send returned %d, no recovery", rc);

    int mode = -1, msg_mode = -1, nsize = -1, nrank = -1;
    FTMPI_Comm_get_mode(com, &mode, &msg_mode);
    MPI_Comm_size(com, &nsize);
    MPI_Comm_rank(com, &nrank);
    if (mode == FTMPI_COMM_MODE_SHRINK) {
        const int expect_rank = rank < victim ? rank : rank - 1;
        CHECK(nsize == size - 1 && nrank == expect_rank, "SHRINK: rank %d of %d, expected %d of %d", nrank, nsize,
              expect_rank, size - 1);
    } else {
        CHECK(nsize == size && nrank == rank, "BLANK: rank %d of %d, expected %d of %d", nrank, nsize, rank, size);
        CHECK(MPI_Send(&x, 1, MPI_INT, victim, 4, com) == MPI_ERR_RANK, "BLANK: a send to the gap is not MPI_ERR_RANK");
    }
    /* The recovered communicator starts with no failures and works. */
    CHECK(MPI_Comm_get_attr(com, FT_MPI_LIST_NUM_FAILED, &num_failed, &flag) == MPI_SUCCESS && flag && *num_failed == 0,
          "the recovered comm still counts %d failures", num_failed ? *num_failed : -1);
    int sum = -1;
    const int expect = size * (size - 1) / 2 - victim;
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, com));
    CHECK(sum == expect, "allreduce over the recovered comm gave %d, expected %d", sum, expect);
    printf("rank %d: examples 1-3 ok (now rank %d of %d)\n", rank, nrank, nsize);
    MPI_Comm_free(&com);
    MPI_Finalize();
    return 0;
}
