/* MPI-4 sessions beside the World Model: a session opened after MPI_Init
 * keeps the library up past MPI_Finalize (its communicator still works
 * there, MPI_Finalized says true), and its end ends the library. */
#include "support/check.h"

int main(int argc, char **argv) {
    int rank, size, flag = 0;
    test_init(&argc, &argv, &rank, &size);
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Group group;
    MPI_Comm comm;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &group));
    CHECK_MPI(MPI_Comm_create_from_group(group, "org.ftmpi.test.beside", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
    MPI_Group_free(&group);
    CHECK_MPI(MPI_Finalize());
    MPI_Finalized(&flag);
    CHECK(flag, "MPI_Finalized is false after MPI_Finalize");
    int sum = 0;
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS,
          "the session's communicator after MPI_Finalize");
    CHECK(sum == size * (size - 1) / 2, "allreduce after MPI_Finalize gave %d", sum);
    MPI_Comm_free(&comm);
    CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS, "MPI_Session_finalize");
    MPI_Session again;
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &again) == MPI_ERR_OTHER,
          "a session after the library ended");
    if (rank == 0) printf("sessions_world: %d processes\n", size);
    return 0;
}
