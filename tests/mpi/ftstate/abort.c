/* ABORT comm mode ends the job at the first failure, even
 * for a program that asked for MPI_ERRORS_RETURN (FT-MPI's ABORT cannot be
 * trapped). The last rank SIGKILLs itself after a barrier; the others wait
 * for a message from it that never comes. They must never get past that
 * receive: if one does, it prints "SURVIVED" and exits 0 (the test's
 * driver fails on that line and on a zero status).
 *
 * FTSTATE_ABORT_HOW=launch: the job runs with --comm-mode abort.
 * FTSTATE_ABORT_HOW=set_mode: the job runs in ULFM mode and the program
 * puts a dup of MPI_COMM_WORLD in ABORT mode with FTMPI_Comm_set_mode; the
 * receive runs on that dup (the error handler hook ends the job). */
#include "check.h"

int main(int argc, char **argv) {
    const int size = ftstate_init(&argc, &argv, 2);
    const char *how = getenv("FTSTATE_ABORT_HOW");
    CHECK(how != NULL, "FTSTATE_ABORT_HOW not set");

    MPI_Comm comm = MPI_COMM_WORLD;
    if (strcmp(how, "set_mode") == 0) {
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
        CHECK_MPI(FTMPI_Comm_set_mode(comm, FTMPI_COMM_MODE_ABORT, FTMPI_MSG_MODE_CONT));
        CHECK(int_attr(comm, MPIX_FT) == 1, "MPIX_FT is not 1 in a ULFM job");
    } else {
        CHECK(int_attr(comm, MPIX_FT) == 0, "MPIX_FT is not 0 with --comm-mode abort");
    }
    CHECK_MPI(MPI_Barrier(comm));
    const int victim = size - 1;
    if (check_rank_ == victim) die_by_sigkill();

    int dummy = 0;
    int rc = MPI_Recv(&dummy, 1, MPI_INT, victim, 1, comm, MPI_STATUS_IGNORE);
    printf("rank %d: SURVIVED the failure in ABORT mode (MPI_Recv returned class %d)\n", check_rank_, error_class(rc));
    fflush(stdout);
    _exit(0);
}
