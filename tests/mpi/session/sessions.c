/* MPI-4 sessions without MPI_Init: a session starts the library, its
 * process sets give groups, MPI_Comm_create_from_group a communicator that
 * works; MPI_Initialized stays false; session error handlers; wrong
 * arguments; the last MPI_Session_finalize ends the library and the process
 * ends normally (the launcher sees no failure). */
#define CHECK_ENDS_RANK_ONLY /* no MPI_COMM_WORLD to abort */
#include "support/check.h"

#include <string.h>

static int handler_calls = 0, handler_code = 0;

static void on_error(MPI_Session *session, int *code, ...) {
    (void)session;
    ++handler_calls;
    handler_code = *code;
}

int main(void) {
    int flag = 1;
    MPI_Initialized(&flag);
    CHECK(!flag, "MPI_Initialized before anything");
    MPI_Info want;
    MPI_Session s;
    CHECK_MPI(MPI_Info_create(&want));
    /* Before anything else: MPI_ERRORS_RETURN already returns (a bad
     * thread level is MPI_ERR_INFO, not the end of the process). */
    CHECK_MPI(MPI_Info_set(want, "thread_level", "MPI_THREAD_NONSENSE"));
    int rc = MPI_Session_init(want, MPI_ERRORS_RETURN, &s);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_INFO, "MPI_Session_init with a bad thread level: class %d", cls);
    CHECK_MPI(MPI_Info_set(want, "thread_level", "MPI_THREAD_MULTIPLE"));
    CHECK_MPI(MPI_Session_init(want, MPI_ERRORS_RETURN, &s));
    MPI_Info_free(&want);
    MPI_Initialized(&flag);
    CHECK(!flag, "MPI_Initialized is true after MPI_Session_init");

    /* The process sets: mpi://WORLD and mpi://SELF. */
    int n = 0, world = 0, self = 0;
    CHECK_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    CHECK(n >= 2, "%d process sets", n);
    for (int i = 0; i < n; ++i) {
        char name[64];
        int len = 0;
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        CHECK(len > 1 && len <= (int)sizeof name, "pset %d: length %d", i, len);
        CHECK_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        world += strcmp(name, "mpi://WORLD") == 0;
        self += strcmp(name, "mpi://SELF") == 0;
    }
    CHECK(world == 1 && self == 1, "mpi://WORLD %d times, mpi://SELF %d times", world, self);
    MPI_Info info;
    char value[64];
    CHECK_MPI(MPI_Session_get_pset_info(s, "mpi://WORLD", &info));
    CHECK_MPI(MPI_Info_get(info, "mpi_size", sizeof value - 1, value, &flag));
    CHECK(flag, "no mpi_size");
    const int size = atoi(value);
    MPI_Info_free(&info);
    CHECK_MPI(MPI_Session_get_info(s, &info));
    CHECK_MPI(MPI_Info_get(info, "thread_level", sizeof value - 1, value, &flag));
    CHECK(flag && strcmp(value, "MPI_THREAD_MULTIPLE") == 0, "thread_level %s", flag ? value : "(none)");
    MPI_Info_free(&info);

    /* A communicator of the world's processes, as a session makes it. */
    MPI_Group group;
    MPI_Comm comm;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &group));
    CHECK_MPI(MPI_Comm_create_from_group(group, "org.ftmpi.test.sessions", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm));
    int csize = 0, rank = -1, sum = 0;
    MPI_Comm_size(comm, &csize);
    MPI_Comm_rank(comm, &rank);
    check_rank_ = rank;
    CHECK(csize == size, "the communicator has %d processes, mpi_size says %d", csize, size);
    CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK(sum == size * (size - 1) / 2, "allreduce gave %d", sum);
    MPI_Group_free(&group);
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &group));
    MPI_Group_size(group, &csize);
    CHECK(csize == 1, "mpi://SELF has %d processes", csize);
    MPI_Group_free(&group);

    /* Wrong arguments, reported through the session's handler. */
    CHECK_CLASS(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &group), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &flag, value), MPI_ERR_ARG);
    MPI_Errhandler mine, got;
    CHECK_MPI(MPI_Session_create_errhandler(on_error, &mine));
    CHECK_MPI(MPI_Session_set_errhandler(s, mine));
    CHECK_MPI(MPI_Session_get_errhandler(s, &got));
    CHECK(got == mine, "Session_get_errhandler gave another handler");
    MPI_Errhandler_free(&got);
    CHECK_MPI(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER, "the session's handler: %d calls, code %d",
          handler_calls, handler_code);
    CHECK_CLASS(MPI_Group_from_session_pset(s, NULL, &group), MPI_ERR_ARG);
    CHECK(handler_calls == 2, "the handler did not hear the wrong argument");
    MPI_Errhandler_free(&mine);

    CHECK_MPI(MPI_Comm_free(&comm));
    CHECK_MPI(MPI_Session_finalize(&s));
    CHECK(s == MPI_SESSION_NULL, "MPI_Session_finalize left the handle");
    MPI_Initialized(&flag);
    CHECK(!flag, "MPI_Initialized after the session");
    MPI_Finalized(&flag);
    CHECK(!flag, "MPI_Finalized without MPI_Init");
    if (rank == 0) printf("sessions: %d processes, no MPI_Init\n", size);
    return 0;
}
