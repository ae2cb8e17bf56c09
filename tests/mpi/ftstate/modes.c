/* The modes API of mpi-ext.h without failures: defaults
 * from the launch environment on MPI_COMM_WORLD and MPI_COMM_SELF,
 * set/get, bad values (MPI_ERR_ARG), inheritance by MPI_Comm_dup and
 * MPI_Comm_split, strict, states, and the fault-tolerance attributes of a
 * communicator nothing failed on (present on every communicator, cannot be
 * set, deleted or freed). */
#include "check.h"

/* The launch modes as ftstate must read them (names as ftmpirun's). */
static int expected_comm_mode(void) {
    const char *v = getenv("FTMPI_COMM_MODE");
    if (v == NULL || !*v || strcmp(v, "ulfm") == 0) return FTMPI_COMM_MODE_ULFM;
    if (strcmp(v, "abort") == 0) return FTMPI_COMM_MODE_ABORT;
    if (strcmp(v, "blank") == 0) return FTMPI_COMM_MODE_BLANK;
    if (strcmp(v, "shrink") == 0) return FTMPI_COMM_MODE_SHRINK;
    if (strcmp(v, "rebuild") == 0) return FTMPI_COMM_MODE_REBUILD;
    if (strcmp(v, "rebuild-append") == 0) return FTMPI_COMM_MODE_REBUILD_APPEND;
    return FTMPI_COMM_MODE_ULFM; /* a bad value: the default */
}

static int expected_msg_mode(void) {
    const char *v = getenv("FTMPI_MSG_MODE");
    return v != NULL && strcmp(v, "nop") == 0 ? FTMPI_MSG_MODE_NOP : FTMPI_MSG_MODE_CONT;
}

static int expected_strict(void) {
    const char *v = getenv("FTMPI_COLL_STRICT");
    return v != NULL && strcmp(v, "1") == 0;
}

static void check_modes(MPI_Comm comm, int comm_mode, int msg_mode, const char *which) {
    int c = -1, m = -1;
    CHECK_MPI(FTMPI_Comm_get_mode(comm, &c, &m));
    CHECK(c == comm_mode && m == msg_mode, "%s: modes (%d, %d), expected (%d, %d)", which, c, m, comm_mode, msg_mode);
}

static void check_clean_attributes(MPI_Comm comm) {
    int size = 0, flag = 0;
    MPI_Comm_size(comm, &size);
    CHECK(int_attr(comm, FT_MPI_LIST_NUM_FAILED) == 0, "FT_MPI_LIST_NUM_FAILED not 0");
    CHECK(int_attr(comm, FT_MPI_COM_NUM_FAILED) == 0, "FT_MPI_COM_NUM_FAILED not 0");
    int *counts = NULL;
    CHECK_MPI(MPI_Comm_get_attr(comm, FT_MPI_COM_FAILED, &counts, &flag));
    CHECK(flag && counts != NULL, "FT_MPI_COM_FAILED missing");
    for (int r = 0; r < size; ++r) CHECK(counts[r] == 0, "FT_MPI_COM_FAILED[%d] = %d", r, counts[r]);
    int *list = NULL;
    CHECK_MPI(MPI_Comm_get_attr(comm, FT_MPI_LIST_FAILED, &list, &flag));
    CHECK(flag && list != NULL, "FT_MPI_LIST_FAILED missing");
    char *text = NULL;
    CHECK_MPI(MPI_Comm_get_attr(comm, FT_MPI_ERROR_STRING, &text, &flag));
    CHECK(flag && text != NULL && strstr(text, "no failure") != NULL, "FT_MPI_ERROR_STRING: '%s'",
          text ? text : "(null)");
    const int ft_on = expected_comm_mode() != FTMPI_COMM_MODE_ABORT;
    CHECK(int_attr(comm, MPIX_FT) == ft_on, "MPIX_FT = %d, expected %d", int_attr(comm, MPIX_FT), ft_on);
    CHECK(int_attr(comm, FTMPI_RESTARTED) == 0, "FTMPI_RESTARTED not 0");
    CHECK(int_attr(comm, FTMPI_INCARNATION) == 0, "FTMPI_INCARNATION not 0");
    int state = -1;
    CHECK_MPI(FTMPI_Comm_get_state(comm, &state));
    CHECK(state == FTMPI_COMM_OK, "state %d, expected FTMPI_COMM_OK", state);
    for (int r = 0; r < size; ++r) {
        CHECK_MPI(FTMPI_Comm_get_proc_state(comm, r, &state));
        CHECK(state == FTMPI_PROC_OK, "proc state of %d is %d", r, state);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Launch defaults. */
    const int launch_comm = expected_comm_mode(), launch_msg = expected_msg_mode();
    check_modes(MPI_COMM_WORLD, launch_comm, launch_msg, "MPI_COMM_WORLD at launch");
    check_modes(MPI_COMM_SELF, launch_comm, launch_msg, "MPI_COMM_SELF at launch");
    int strict = -1;
    CHECK_MPI(FTMPI_Comm_get_strict(MPI_COMM_WORLD, &strict));
    CHECK(strict == expected_strict(), "strict %d at launch, expected %d", strict, expected_strict());
    check_clean_attributes(MPI_COMM_WORLD);
    check_clean_attributes(MPI_COMM_SELF);

    /* Inheritance: a dup and a split carry the parent's modes and strict. */
    MPI_Comm work, half;
    CHECK_MPI(FTMPI_Comm_set_mode(MPI_COMM_WORLD, FTMPI_COMM_MODE_SHRINK, FTMPI_MSG_MODE_NOP));
    CHECK_MPI(FTMPI_Comm_set_strict(MPI_COMM_WORLD, 1));
    check_modes(MPI_COMM_WORLD, FTMPI_COMM_MODE_SHRINK, FTMPI_MSG_MODE_NOP, "MPI_COMM_WORLD after set_mode");
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &work));
    check_modes(work, FTMPI_COMM_MODE_SHRINK, FTMPI_MSG_MODE_NOP, "dup of MPI_COMM_WORLD");
    CHECK_MPI(FTMPI_Comm_get_strict(work, &strict));
    CHECK(strict == 1, "dup did not inherit strict");
    CHECK_MPI(MPI_Comm_split(work, check_rank_ % 2, 0, &half));
    check_modes(half, FTMPI_COMM_MODE_SHRINK, FTMPI_MSG_MODE_NOP, "split of the dup");
    check_clean_attributes(work);
    check_clean_attributes(half);

    /* Local: changing the child leaves the parent alone. */
    CHECK_MPI(FTMPI_Comm_set_mode(work, FTMPI_COMM_MODE_REBUILD_APPEND, FTMPI_MSG_MODE_CONT));
    CHECK_MPI(FTMPI_Comm_set_strict(work, 0));
    check_modes(work, FTMPI_COMM_MODE_REBUILD_APPEND, FTMPI_MSG_MODE_CONT, "dup after set_mode");
    check_modes(MPI_COMM_WORLD, FTMPI_COMM_MODE_SHRINK, FTMPI_MSG_MODE_NOP, "MPI_COMM_WORLD after the dup changed");

    /* Bad input: unknown modes, null pointers, a rank out of range, a null
     * communicator. Nothing changes on error. */
    CHECK_CLASS(FTMPI_Comm_set_mode(work, 6, FTMPI_MSG_MODE_CONT), MPI_ERR_ARG);
    CHECK_CLASS(FTMPI_Comm_set_mode(work, -1, FTMPI_MSG_MODE_CONT), MPI_ERR_ARG);
    CHECK_CLASS(FTMPI_Comm_set_mode(work, FTMPI_COMM_MODE_BLANK, 2), MPI_ERR_ARG);
    check_modes(work, FTMPI_COMM_MODE_REBUILD_APPEND, FTMPI_MSG_MODE_CONT, "dup after bad set_mode");
    CHECK_CLASS(FTMPI_Comm_get_mode(work, NULL, &strict), MPI_ERR_ARG);
    CHECK_CLASS(FTMPI_Comm_get_state(work, NULL), MPI_ERR_ARG);
    CHECK_CLASS(FTMPI_Comm_get_strict(work, NULL), MPI_ERR_ARG);
    int size = 0, state = 0;
    MPI_Comm_size(work, &size);
    CHECK_CLASS(FTMPI_Comm_get_proc_state(work, size, &state), MPI_ERR_RANK);
    CHECK_CLASS(FTMPI_Comm_get_proc_state(work, -1, &state), MPI_ERR_RANK);
    CHECK_CLASS(FTMPI_Comm_set_mode(MPI_COMM_NULL, FTMPI_COMM_MODE_BLANK, FTMPI_MSG_MODE_CONT), MPI_ERR_COMM);
    /* The PFTMPI_ twins are the same functions. */
    int c = -1, m = -1;
    CHECK_MPI(PFTMPI_Comm_get_mode(work, &c, &m));
    CHECK(c == FTMPI_COMM_MODE_REBUILD_APPEND && m == FTMPI_MSG_MODE_CONT, "PFTMPI_Comm_get_mode (%d, %d)", c, m);

    /* The FT keys are predefined: users cannot set, delete or free them. */
    int dummy = 7, key = FT_MPI_LIST_NUM_FAILED;
    CHECK_CLASS(MPI_Comm_set_attr(work, FT_MPI_LIST_NUM_FAILED, &dummy), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_delete_attr(work, MPIX_FT), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_free_keyval(&key), MPI_ERR_KEYVAL);
    /* A user keyval never collides with them. */
    int user_key = MPI_KEYVAL_INVALID;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &user_key, NULL));
    CHECK(user_key > FTMPI_INCARNATION, "user keyval %d collides with the FT keys", user_key);
    CHECK_MPI(MPI_Comm_free_keyval(&user_key));

    CHECK_MPI(MPI_Comm_free(&half));
    CHECK_MPI(MPI_Comm_free(&work));
    if (check_rank_ == 0) printf("modes: OK (launch comm mode %d, msg mode %d)\n", launch_comm, launch_msg);
    MPI_Finalize();
    return 0;
}
