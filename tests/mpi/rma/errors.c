/* Error cases return clear classes and nothing crashes: invalid and freed
 * windows, ranks, displacements outside the target window, calls outside
 * an epoch, lock types, counts, datatypes, ops, creation arguments; a
 * user error handler on a window; attributes, info and Fortran handles. */
#include "rma_test.h"

static int handler_calls = 0, handler_code = 0;
static void on_error(MPI_Win *win, int *code, ...) {
    (void)win;
    ++handler_calls;
    handler_code = *code;
}

static int deleted = 0;
static int on_delete(MPI_Win win, int keyval, void *value, void *extra) {
    (void)win, (void)keyval, (void)extra;
    deleted += *(int *)value;
    return MPI_SUCCESS;
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)in, (void)inout, (void)len, (void)type;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int mem[4] = {0, 0, 0, 0}, v = 1;
    MPI_Win win;

    /* Creation arguments. */
    CHECK_CLASS(MPI_Win_create(mem, -1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_SIZE);
    CHECK_CLASS(MPI_Win_create(mem, sizeof mem, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP);
    CHECK_CLASS(MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_NULL, &win), MPI_ERR_COMM);
    /* Invalid windows. */
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_CLASS(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
    CHECK_CLASS(MPI_Win_fence(0, (MPI_Win)&v), MPI_ERR_WIN);

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "false");
    CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), info, MPI_COMM_WORLD, &win));
    MPI_Info_free(&info);
    MPI_Errhandler eh, got_eh;
    CHECK_MPI(MPI_Win_get_errhandler(win, &got_eh));
    CHECK(got_eh == MPI_ERRORS_ARE_FATAL, "default window handler is not MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&got_eh);
    CHECK_MPI(MPI_Win_create_errhandler(on_error, &eh));
    CHECK_MPI(MPI_Win_set_errhandler(win, eh));
    MPI_Errhandler_free(&eh);

    /* Outside any epoch. */
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
    CHECK(handler_calls == 1 && error_class(handler_code) == MPI_ERR_RMA_SYNC, "user handler: %d calls, code %d",
          handler_calls, handler_code);
    CHECK_CLASS(MPI_Win_unlock(0, win), MPI_ERR_RMA_SYNC);
    CHECK_CLASS(MPI_Win_flush(0, win), MPI_ERR_RMA_SYNC);
    CHECK_CLASS(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, -5, 0, 1, MPI_INT, win), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, 0, 4, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, 0, -1, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_CLASS(MPI_Get(mem, 5, MPI_INT, 0, 0, 5, MPI_INT, win), MPI_ERR_RMA_RANGE);
    CHECK_CLASS(MPI_Put(&v, -1, MPI_INT, 0, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Put(&v, 1, MPI_DATATYPE_NULL, 0, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_DOUBLE, win), MPI_ERR_TYPE);
    MPI_Op user;
    MPI_Op_create(user_sum, 1, &user);
    CHECK_CLASS(MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, user, win), MPI_ERR_OP);
    MPI_Op_free(&user);
    double d = 1;
    CHECK_CLASS(MPI_Compare_and_swap(&d, &d, &d, MPI_DOUBLE, 0, 0, win), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, 0, 1, MPI_DOUBLE, MPI_BAND, win), MPI_ERR_OP);
    CHECK_MPI(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    /* Accumulates that move no data combine nothing: types that would
     * disagree (or have no elements) are no error; the op still must be a
     * predefined one. */
    MPI_Datatype empty;
    MPI_Type_contiguous(0, MPI_INT, &empty);
    MPI_Type_commit(&empty);
    CHECK_MPI(MPI_Accumulate(&v, 0, MPI_INT, 0, 0, 0, MPI_DOUBLE, MPI_SUM, win));
    CHECK_MPI(MPI_Accumulate(NULL, 2, empty, 0, 0, 1, empty, MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate(&v, 0, MPI_DOUBLE, &d, 0, MPI_INT, 0, 0, 0, MPI_INT, MPI_SUM, win));
    CHECK_MPI(MPI_Get_accumulate(NULL, 1, empty, NULL, 0, MPI_DOUBLE, 0, 0, 2, empty, MPI_SUM, win));
    MPI_Op_create(user_sum, 1, &user);
    CHECK_CLASS(MPI_Accumulate(&v, 0, MPI_INT, 0, 0, 0, MPI_INT, user, win), MPI_ERR_OP);
    MPI_Op_free(&user);
    MPI_Type_free(&empty);
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED + 7, 0, 0, win), MPI_ERR_LOCKTYPE);
    CHECK_CLASS(MPI_Win_fence(MPI_MODE_NOCHECK, win), MPI_ERR_ASSERT);
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOPUT, win), MPI_ERR_ASSERT);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    /* Lock misuse. */
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win), MPI_ERR_RMA_SYNC);
    CHECK_CLASS(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
    CHECK_CLASS(MPI_Win_free(&win), MPI_ERR_RMA_SYNC);
    CHECK_MPI(MPI_Win_unlock(0, win));

    /* Attributes, info, Fortran handles. */
    int key, val = 5, *pv = NULL, flag = 0;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, on_delete, &key, NULL));
    CHECK_MPI(MPI_Win_set_attr(win, key, &val));
    CHECK_MPI(MPI_Win_get_attr(win, key, &pv, &flag));
    CHECK(flag && pv == &val, "attribute not found");
    CHECK_MPI(MPI_Win_delete_attr(win, key));
    CHECK(deleted == 5, "delete callback not called");
    CHECK_MPI(MPI_Win_set_attr(win, key, &val));
    CHECK_MPI(MPI_Win_get_info(win, &info));
    char value[16];
    CHECK_MPI(MPI_Info_get(info, "no_locks", sizeof value, value, &flag));
    CHECK(flag && strcmp(value, "false") == 0, "info no_locks lost");
    MPI_Info_free(&info);
    CHECK(MPI_Win_f2c(MPI_Win_c2f(win)) == win, "c2f/f2c round trip");

    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Win old = win;
    CHECK_MPI(MPI_Win_free(&win));
    CHECK(deleted == 10, "MPI_Win_free did not delete the attribute");
    CHECK_MPI(MPI_Win_free_keyval(&key));
    CHECK_CLASS(MPI_Win_fence(0, old), MPI_ERR_WIN);
    CHECK_CLASS(MPI_Win_free(&old), MPI_ERR_WIN);
    MPI_Finalize();
    return 0;
}
