/* The MPI-4.0 and 4.1 calls of the standard's API list that came late:
 * status field accessors and the mpi_f08 status conversions, session
 * handles for Fortran, the array forms of MPI_Request_get_status, removing
 * added error classes, codes and strings, MPI_Type_get_value_index,
 * MPI_Get_hw_resource_info, MPI_CONVERSION_FN_NULL, and the buffers of
 * buffered sends per communicator, per session and per process. */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

static void status_fields(void) {
    MPI_Status st;
    int v = 0;
    memset(&st, 0, sizeof st);
    CHECK_MPI(MPI_Status_set_source(&st, 7));
    CHECK_MPI(MPI_Status_set_tag(&st, 42));
    CHECK_MPI(MPI_Status_set_error(&st, MPI_ERR_TAG));
    CHECK(st.MPI_SOURCE == 7 && st.MPI_TAG == 42 && st.MPI_ERROR == MPI_ERR_TAG, "set_*: %d %d %d", st.MPI_SOURCE,
          st.MPI_TAG, st.MPI_ERROR);
    CHECK_MPI(MPI_Status_get_source(&st, &v));
    CHECK(v == 7, "get_source %d", v);
    CHECK_MPI(MPI_Status_get_tag(&st, &v));
    CHECK(v == 42, "get_tag %d", v);
    CHECK_MPI(MPI_Status_get_error(&st, &v));
    CHECK(v == MPI_ERR_TAG, "get_error %d", v);
    CHECK_CLASS(MPI_Status_get_tag(NULL, &v), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_set_source(NULL, 1), MPI_ERR_ARG);

    /* A real status through every f08 conversion and back. */
    int sent[5] = {1, 2, 3, 4, 5}, got[5];
    MPI_Status from, back;
    CHECK_MPI(MPI_Sendrecv(sent, 5, MPI_INT, 0, 9, got, 5, MPI_INT, 0, 9, MPI_COMM_SELF, &from));
    MPI_F08_status f08, f08b;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    CHECK_MPI(MPI_Status_c2f08(&from, &f08));
    CHECK(f08.MPI_SOURCE == 0 && f08.MPI_TAG == 9, "c2f08: %d %d", (int)f08.MPI_SOURCE, (int)f08.MPI_TAG);
    CHECK_MPI(MPI_Status_f082f(&f08, f));
    CHECK(f[0] == 0 && f[1] == 9, "f082f: %d %d", (int)f[0], (int)f[1]);
    CHECK_MPI(MPI_Status_f2f08(f, &f08b));
    CHECK(memcmp(&f08, &f08b, sizeof f08) == 0, "f2f08 differs from c2f08");
    CHECK_MPI(MPI_Status_f082c(&f08b, &back));
    int count = -1;
    CHECK_MPI(MPI_Get_count(&back, MPI_INT, &count));
    CHECK(count == 5 && back.MPI_SOURCE == 0 && back.MPI_TAG == 9, "f082c: count %d source %d tag %d", count,
          back.MPI_SOURCE, back.MPI_TAG);
    CHECK_CLASS(MPI_Status_c2f08(NULL, &f08), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Status_f082c(&f08, NULL), MPI_ERR_ARG);
}

static void request_status_arrays(int rank, int size) {
    const int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    int in = -1, out = rank + 100, index = -5, flag = -1, outcount = -5, indices[2];
    MPI_Request rs[2];
    MPI_Status st, sts[2];

    /* Only null requests: done, no index. */
    rs[0] = rs[1] = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Request_get_status_any(2, rs, &index, &flag, &st));
    CHECK(flag && index == MPI_UNDEFINED, "any over nulls: flag %d index %d", flag, index);
    CHECK_MPI(MPI_Request_get_status_some(2, rs, &outcount, indices, sts));
    CHECK(outcount == MPI_UNDEFINED, "some over nulls: %d", outcount);
    CHECK_MPI(MPI_Request_get_status_all(2, rs, &flag, sts));
    CHECK(flag, "all over nulls");

    /* A receive nothing was sent to yet is not complete. */
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, from, 5, MPI_COMM_WORLD, &rs[0]));
    CHECK_MPI(MPI_Request_get_status_all(1, rs, &flag, sts));
    CHECK(!flag, "all: an unmatched receive counts as complete");
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD)); /* every receive is posted before any send */
    CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &rs[1]));
    /* Look until both are complete: the requests stay as they are. */
    flag = 0;
    while (!flag) CHECK_MPI(MPI_Request_get_status_all(2, rs, &flag, sts));
    CHECK(rs[0] != MPI_REQUEST_NULL && rs[1] != MPI_REQUEST_NULL, "get_status_all freed a request");
    CHECK(sts[0].MPI_SOURCE == from && sts[0].MPI_TAG == 5, "all: receive status %d %d", sts[0].MPI_SOURCE,
          sts[0].MPI_TAG);
    CHECK_MPI(MPI_Request_get_status_some(2, rs, &outcount, indices, sts));
    CHECK(outcount == 2 && indices[0] == 0 && indices[1] == 1, "some: %d [%d %d]", outcount, indices[0], indices[1]);
    CHECK_MPI(MPI_Request_get_status_any(2, rs, &index, &flag, &st));
    CHECK(flag && index == 0 && st.MPI_SOURCE == from, "any: flag %d index %d source %d", flag, index, st.MPI_SOURCE);
    CHECK(rs[0] != MPI_REQUEST_NULL, "get_status_any freed its request");
    /* Wait still retires them and gets the data. */
    CHECK_MPI(MPI_Waitall(2, rs, MPI_STATUSES_IGNORE));
    CHECK(in == from + 100, "received %d, expected %d", in, from + 100);
    CHECK_CLASS(MPI_Request_get_status_any(-1, rs, &index, &flag, &st), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Request_get_status_some(2, rs, NULL, indices, sts), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Request_get_status_all(2, rs, NULL, sts), MPI_ERR_ARG);
}

static void remove_errors(void) {
    int cls, code, resultlen, got;
    char text[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Add_error_class(&cls));
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Add_error_string(code, "a code about to go"));
    CHECK_MPI(MPI_Add_error_string(cls, "a class about to go"));

    CHECK_CLASS(MPI_Remove_error_class(cls), MPI_ERR_ARG); /* its code is still there */
    CHECK_CLASS(MPI_Remove_error_class(MPI_ERR_TAG), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Remove_error_code(MPI_ERR_TAG), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Remove_error_code(cls), MPI_ERR_ARG); /* a class, not a code */
    CHECK_CLASS(MPI_Remove_error_string(MPI_ERR_TAG), MPI_ERR_ARG);

    CHECK_MPI(MPI_Remove_error_string(code));
    CHECK_MPI(MPI_Error_string(code, text, &resultlen));
    CHECK(resultlen == 0, "string still there: '%s'", text);
    CHECK_CLASS(MPI_Remove_error_string(code), MPI_ERR_ARG); /* nothing left to remove */
    CHECK_MPI(MPI_Error_class(code, &got));
    CHECK(got == cls, "class of the code %d, expected %d", got, cls);

    CHECK_MPI(MPI_Remove_error_code(code));
    CHECK_CLASS(MPI_Error_class(code, &got), MPI_ERR_ARG);
    CHECK_MPI(MPI_Remove_error_class(cls));
    CHECK_CLASS(MPI_Error_class(cls, &got), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Add_error_code(cls, &code), MPI_ERR_ARG);
}

static void value_index(void) {
    MPI_Datatype pair = MPI_BYTE;
    CHECK_MPI(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, &pair));
    CHECK(pair == MPI_FLOAT_INT, "float+int");
    CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair));
    CHECK(pair == MPI_DOUBLE_INT, "double+int");
    CHECK_MPI(MPI_Type_get_value_index(MPI_INT, MPI_INT, &pair));
    CHECK(pair == MPI_2INT, "int+int");
    CHECK_MPI(MPI_Type_get_value_index(MPI_SHORT, MPI_INT, &pair));
    CHECK(pair == MPI_SHORT_INT, "short+int");
    CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, &pair));
    CHECK(pair == MPI_2DOUBLE_PRECISION, "2 double precision");
    CHECK_MPI(MPI_Type_get_value_index(MPI_DOUBLE, MPI_LONG, &pair));
    CHECK(pair == MPI_DATATYPE_NULL, "double+long has no pair type");
    /* The pair works with MINLOC. */
    struct {
        float value;
        int index;
    } in = {2.5f, 3}, out;
    CHECK_MPI(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, &pair));
    CHECK_MPI(MPI_Allreduce(&in, &out, 1, pair, MPI_MINLOC, MPI_COMM_SELF));
    CHECK(out.value == 2.5f && out.index == 3, "minloc %g %d", (double)out.value, out.index);
    CHECK_CLASS(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &pair), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, NULL), MPI_ERR_ARG);
}

static void hw_and_datarep(void) {
    MPI_Info info;
    char value[MPI_MAX_INFO_VAL];
    int buflen = sizeof value, flag = 0;
    CHECK_MPI(MPI_Get_hw_resource_info(&info));
    CHECK(info != MPI_INFO_NULL, "no info object");
    CHECK_MPI(MPI_Info_get_string(info, "ftmpi_usable_cpus", &buflen, value, &flag));
    CHECK(flag && atoi(value) >= 1, "usable cpus '%s'", flag ? value : "(none)");
    buflen = sizeof value;
    CHECK_MPI(MPI_Info_get_string(info, "ftmpi_online_cpus", &buflen, value, &flag));
    CHECK(flag && atoi(value) >= 1, "online cpus '%s'", flag ? value : "(none)");
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_CLASS(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG);

    /* A predefined function: callable, converts nothing. */
    char buf[4] = "abc", file[4] = "xyz";
    CHECK_MPI(MPI_CONVERSION_FN_NULL(buf, MPI_CHAR, 3, file, 0, NULL));
    CHECK(memcmp(file, "xyz", 3) == 0 && memcmp(buf, "abc", 3) == 0, "CONVERSION_FN_NULL changed data");
    CHECK_MPI(MPI_CONVERSION_FN_NULL_C(buf, MPI_CHAR, 3, file, 0, NULL));
}

static void sessions(void) {
    MPI_Session s;
    CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Fint f = MPI_Session_c2f(s);
    CHECK(f != 0 && MPI_Session_f2c(f) == s, "Session_c2f/f2c round trip: %d", (int)f);
    CHECK(MPI_Session_c2f(MPI_SESSION_NULL) == 0 && MPI_Session_f2c(0) == MPI_SESSION_NULL, "null session");

    /* A communicator of the session: its buffered sends use the session's
     * buffer while it has none of its own. */
    MPI_Group g;
    MPI_Comm c;
    CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://SELF", &g));
    CHECK_MPI(MPI_Comm_create_from_group(g, "mpi41.buffers", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    CHECK_MPI(MPI_Group_free(&g));
    int x = 5, y = 0, size = 0;
    MPI_Comm d; /* derived from c: of the same session */
    CHECK_MPI(MPI_Comm_dup(c, &d));
    CHECK_CLASS(MPI_Bsend(&x, 1, MPI_INT, 0, 1, c), MPI_ERR_BUFFER); /* nothing attached anywhere */
    CHECK_CLASS(MPI_Bsend(&x, 1, MPI_INT, 0, 1, d), MPI_ERR_BUFFER);
    static char room[MPI_BSEND_OVERHEAD + 64];
    CHECK_MPI(MPI_Session_attach_buffer(s, room, sizeof room));
    CHECK_CLASS(MPI_Session_attach_buffer(s, room, sizeof room), MPI_ERR_BUFFER); /* one at a time */
    CHECK_MPI(MPI_Bsend(&x, 1, MPI_INT, 0, 1, c));
    CHECK_MPI(MPI_Bsend(&x, 1, MPI_INT, 0, 6, d));
    CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 6, d, MPI_STATUS_IGNORE));
    CHECK(y == 5, "session-buffered message on a derived communicator %d", y);
    CHECK_MPI(MPI_Comm_free(&d));
    CHECK_MPI(MPI_Session_flush_buffer(s));
    MPI_Request r;
    CHECK_MPI(MPI_Session_iflush_buffer(s, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE));
    CHECK(y == 5, "session-buffered message %d", y);
    void *addr = NULL;
    CHECK_MPI(MPI_Session_detach_buffer(s, &addr, &size));
    CHECK(addr == room && size == (int)sizeof room, "session detach: %p %d", addr, size);
    CHECK_CLASS(MPI_Session_attach_buffer(s, NULL, 10), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Session_flush_buffer(MPI_SESSION_NULL), MPI_ERR_SESSION);
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK_MPI(MPI_Session_finalize(&s));
}

static void comm_and_process_buffers(int rank) {
    MPI_Comm c;
    int x = rank, y = -1, size = -1;
    void *addr = NULL;
    MPI_Request r;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &c));
    CHECK_MPI(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));

    /* The process's buffer serves every communicator without one. The
     * copies of messages to this process leave at once (the receiver's
     * queue keeps them), so what a buffer bounds is one message's size. */
    static char process_room[MPI_BSEND_OVERHEAD + 4 * sizeof(int)];
    CHECK_MPI(MPI_Buffer_attach(process_room, sizeof process_room));
    CHECK_MPI(MPI_Bsend(&x, 1, MPI_INT, 0, 2, c));
    CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 2, c, MPI_STATUS_IGNORE));
    CHECK(y == rank, "process-buffered message %d", y);

    /* The communicator's own buffer comes first: too small for a message,
     * it refuses one the process's buffer would take. */
    static char comm_room[MPI_BSEND_OVERHEAD + 2 * sizeof(int)];
    int three[3] = {1, 2, 3};
    CHECK_MPI(MPI_Comm_attach_buffer(c, comm_room, sizeof comm_room));
    CHECK_CLASS(MPI_Comm_attach_buffer(c, comm_room, sizeof comm_room), MPI_ERR_BUFFER); /* one at a time */
    CHECK_CLASS(MPI_Bsend(three, 3, MPI_INT, 0, 3, c), MPI_ERR_BUFFER);
    CHECK_MPI(MPI_Bsend(three, 3, MPI_INT, 0, 3, MPI_COMM_SELF)); /* no buffer of its own: the process's */
    CHECK_MPI(MPI_Recv(three, 3, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Bsend(&x, 1, MPI_INT, 0, 4, c));
    CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 4, c, MPI_STATUS_IGNORE));
    CHECK(y == rank, "comm-buffered message %d", y);
    CHECK_MPI(MPI_Comm_flush_buffer(c));
    CHECK_MPI(MPI_Comm_iflush_buffer(c, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_detach_buffer(c, &addr, &size));
    CHECK(addr == comm_room && size == (int)sizeof comm_room, "comm detach: %p %d", addr, size);
    CHECK_MPI(MPI_Bsend(three, 3, MPI_INT, 0, 5, c)); /* detached: the process's again */
    CHECK_MPI(MPI_Recv(three, 3, MPI_INT, 0, 5, c, MPI_STATUS_IGNORE));

    /* Automatic: no bound. */
    CHECK_MPI(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
    static int big[4096];
    CHECK_MPI(MPI_Bsend(big, 4096, MPI_INT, 0, 9, c)); /* far beyond process_room */
    CHECK_MPI(MPI_Recv(big, 4096, MPI_INT, 0, 9, c, MPI_STATUS_IGNORE));
    for (int i = 0; i < 8; ++i) CHECK_MPI(MPI_Bsend(&i, 1, MPI_INT, 0, 10 + i, c));
    for (int i = 0; i < 8; ++i) {
        CHECK_MPI(MPI_Recv(&y, 1, MPI_INT, 0, 10 + i, c, MPI_STATUS_IGNORE));
        CHECK(y == i, "automatic buffer message %d: %d", i, y);
    }
    CHECK_MPI(MPI_Comm_detach_buffer(c, &addr, &size));
    CHECK(addr == MPI_BUFFER_AUTOMATIC && size == 0, "automatic detach: %p %d", addr, size);
    CHECK_CLASS(MPI_Comm_attach_buffer(MPI_COMM_NULL, comm_room, 8), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_detach_buffer(c, NULL, &size), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_iflush_buffer(c, NULL), MPI_ERR_ARG);

    CHECK_MPI(MPI_Buffer_flush());
    CHECK_MPI(MPI_Buffer_iflush(&r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Buffer_detach(&addr, &size));
    CHECK(addr == process_room && size == (int)sizeof process_room, "process detach: %p %d", addr, size);
    CHECK_MPI(MPI_Comm_free(&c));
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    status_fields();
    request_status_arrays(rank, size);
    remove_errors();
    value_index();
    hw_and_datarep();
    sessions();
    comm_and_process_buffers(rank);
    MPI_Finalize();
    if (rank == 0) printf("mpi41_calls: OK\n");
    return 0;
}
