/* Error classes, strings and handlers: a string for every class of mpi.h
 * and mpi-ext.h, added classes/codes/strings, a user handler called with
 * the right code and communicator, MPI_ERRORS_RETURN, call_errhandler,
 * get/set/free of handlers, and handlers inherited by new communicators. */
#include "support/check.h"

#include <mpi-ext.h>
#include <string.h>

static int handler_calls, handler_code;
static MPI_Comm handler_comm;

/* A handler that clears the error: the call then returns MPI_SUCCESS, as
 * under MPICH and Open MPI (the call returns the code the handler left). */
static void forgiving_handler(MPI_Comm *comm, int *code, ...) {
    (void)comm;
    ++handler_calls;
    *code = MPI_SUCCESS;
}

static void record_handler(MPI_Comm *comm, int *code, ...) {
    ++handler_calls;
    handler_code = *code;
    handler_comm = *comm;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);

    /* The default on world is ERRORS_ARE_FATAL. */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "world's default handler is not ERRORS_ARE_FATAL");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Every class has its own non-empty string naming it. */
    char text[MPI_MAX_ERROR_STRING], other[MPI_MAX_ERROR_STRING];
    int len, cls;
    for (int c = MPI_SUCCESS; c <= MPIX_ERR_REVOKED; ++c) {
        CHECK_MPI(MPI_Error_string(c, text, &len));
        CHECK(len > 0 && (int)strlen(text) == len, "empty string for class %d", c);
        CHECK_MPI(MPI_Error_class(c, &cls));
        CHECK(cls == c, "class of %d is %d", c, cls);
        if (c > 0) {
            CHECK_MPI(MPI_Error_string(c - 1, other, &len));
            CHECK(strcmp(text, other) != 0, "classes %d and %d share the string '%s'", c - 1, c, text);
        }
    }
    CHECK_MPI(MPI_Error_string(MPI_ERR_RANK, text, &len));
    CHECK(strstr(text, "MPI_ERR_RANK") && strstr(text, "rank"), "MPI_ERR_RANK's string '%s'", text);
    CHECK_MPI(MPI_Error_string(MPIX_ERR_PROC_FAILED, text, &len));
    CHECK(strstr(text, "MPIX_ERR_PROC_FAILED") != NULL, "MPIX_ERR_PROC_FAILED's string '%s'", text);
    CHECK_CLASS(MPI_Error_class(-5, &cls), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Error_string(MPI_ERR_LASTCODE + 1000, text, &len), MPI_ERR_ARG);

    /* Added classes and codes, with strings, above MPI_ERR_LASTCODE. */
    int my_class, my_code, *last, flag;
    CHECK_MPI(MPI_Add_error_class(&my_class));
    CHECK(my_class > MPI_ERR_LASTCODE, "added class %d is not above MPI_ERR_LASTCODE", my_class);
    CHECK_MPI(MPI_Add_error_code(my_class, &my_code));
    CHECK(my_code != my_class, "added code equals its class");
    CHECK_MPI(MPI_Error_class(my_code, &cls));
    CHECK(cls == my_class, "class of added code %d", cls);
    CHECK_MPI(MPI_Add_error_string(my_code, "the flux capacitor is empty"));
    CHECK_MPI(MPI_Error_string(my_code, text, &len));
    CHECK(strcmp(text, "the flux capacitor is empty") == 0, "added string '%s'", text);
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    CHECK(flag && *last >= my_code, "MPI_LASTUSEDCODE %d < %d", flag ? *last : -1, my_code);
    int code_of_builtin;
    CHECK_MPI(MPI_Add_error_code(MPI_ERR_OTHER, &code_of_builtin));
    CHECK_MPI(MPI_Error_class(code_of_builtin, &cls));
    CHECK(cls == MPI_ERR_OTHER, "code added to MPI_ERR_OTHER has class %d", cls);
    CHECK_CLASS(MPI_Add_error_code(my_code, &code_of_builtin), MPI_ERR_ARG); /* a code is not a class */
    CHECK_CLASS(MPI_Add_error_string(MPI_ERR_RANK, "no"), MPI_ERR_ARG);      /* predefined keep theirs */

    /* A user handler on a dup: called once per error with that comm and code. */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Errhandler mine;
    CHECK_MPI(MPI_Comm_create_errhandler(record_handler, &mine));
    CHECK_MPI(MPI_Comm_set_errhandler(dup, mine));
    int x = 0;
    int rc = MPI_Send(&x, 1, MPI_INT, size + 3, 0, dup); /* no such rank */
    CHECK(rc != MPI_SUCCESS, "send to rank %d succeeded", size + 3);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_RANK, "send to a bad rank: class %d", cls);
    CHECK(handler_calls == 1 && handler_code == rc && handler_comm == dup,
          "user handler: %d calls, code %d (returned %d), right comm %d", handler_calls, handler_code, rc,
          handler_comm == dup);
    rc = MPI_Comm_split(dup, -3, 0, &(MPI_Comm){0});
    CHECK(handler_calls == 2 && handler_code == rc, "handler not called for a bad color");
    CHECK_MPI(MPI_Comm_call_errhandler(dup, my_code));
    CHECK(handler_calls == 3 && handler_code == my_code, "Comm_call_errhandler did not reach the handler");

    /* get_errhandler returns it; a dup inherits it; freeing the handle keeps it on the comm. */
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &eh));
    CHECK(eh == mine, "get_errhandler returned another handler");
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK_MPI(MPI_Errhandler_free(&mine));
    CHECK(mine == MPI_ERRHANDLER_NULL, "Errhandler_free did not reset the handle");
    MPI_Comm dup2;
    CHECK_MPI(MPI_Comm_dup(dup, &dup2));
    MPI_Send(&x, 1, MPI_INT, -7, 0, dup2);
    CHECK(handler_calls == 4 && handler_comm == dup2, "dup did not inherit the user handler");

    MPI_Errhandler forgiving;
    CHECK_MPI(MPI_Comm_create_errhandler(forgiving_handler, &forgiving));
    CHECK_MPI(MPI_Comm_set_errhandler(dup2, forgiving));
    rc = MPI_Send(&x, 1, MPI_INT, -7, 0, dup2);
    CHECK(rc == MPI_SUCCESS && handler_calls == 5, "a handler that cleared the code: call returned %d, %d calls", rc,
          handler_calls);
    CHECK_MPI(MPI_Errhandler_free(&forgiving));
    handler_calls = 4;

    /* ERRORS_RETURN: codes come back, nothing is called. */
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    rc = MPI_Send(&x, -1, MPI_INT, 0, 0, dup);
    CHECK_MPI(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_COUNT, "negative count: class %d", cls);
    CHECK(handler_calls == 4, "handler called under ERRORS_RETURN");
    CHECK_CLASS(MPI_Comm_set_errhandler(dup, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Comm_create_errhandler(NULL, &mine), MPI_ERR_ARG);

    CHECK_MPI(MPI_Comm_free(&dup2));
    CHECK_MPI(MPI_Comm_free(&dup));
    MPI_Finalize();
    return 0;
}
