/* MPI-IO basics: every call family of the individual and explicit-offset
 * paths, file management, error handlers, non-blocking and split forms, each
 * checked by reading the file back (through MPI and with plain POSIX). */
#include "io_test.h"

#define N   1000
#define ISZ ((MPI_Offset)sizeof(int))

static int handler_calls = 0;
static void count_errors(MPI_File *fh, int *code, ...) {
    (void)fh;
    (void)code;
    ++handler_calls;
}

/* Checks that MPI_File_get_info reports hint `key` with the value `expected`. */
static void check_hint(MPI_File fh, const char *key, const char *expected) {
    MPI_Info info;
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    MPI_Info_free(&info);
    CHECK(flag && strcmp(value, expected) == 0, "hint %s is %s, expected %s", key, flag ? value : "(none)", expected);
}

int main(int argc, char **argv) {
    int rank, size;
    char name[256];
    io_test_init(&argc, &argv, "basic", &rank, &size, name, sizeof name);

    /* Files return errors by default (MPI-3.1 §13.7). */
    MPI_Errhandler eh;
    CHECK_MPI(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "default file error handler is not MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);

    MPI_File fh;
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    int amode;
    CHECK_MPI(MPI_File_get_amode(fh, &amode));
    CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "amode %d", amode);
    MPI_Group g, wg;
    int cmp;
    CHECK_MPI(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT, "file group differs from the communicator's");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    /* write_at / read_at: rank r owns ints [r*N, (r+1)*N). */
    int buf[N], back[N];
    for (int i = 0; i < N; ++i) buf[i] = rank * N + i;
    MPI_Status st;
    int count;
    CHECK_MPI(MPI_File_write_at(fh, (MPI_Offset)rank * N * ISZ, buf, N, MPI_INT, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == N, "write_at count %d", count);
    CHECK_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    int peer = (rank + 1) % size;
    CHECK_MPI(MPI_File_read_at(fh, (MPI_Offset)peer * N * ISZ, back, N, MPI_INT, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == N, "read_at count %d", count);
    for (int i = 0; i < N; ++i) CHECK(back[i] == peer * N + i, "read_at[%d] = %d", i, back[i]);
    MPI_Barrier(MPI_COMM_WORLD); /* the peer has read my block before I change it */

    MPI_Offset fsize;
    CHECK_MPI(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == (MPI_Offset)size * N * ISZ, "size %lld", (long long)fsize);

    /* Individual pointer: seek, write, position, read. */
    MPI_Offset pos;
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)rank * N * ISZ, MPI_SEEK_SET));
    for (int i = 0; i < N; ++i) buf[i] = -(rank * N + i);
    CHECK_MPI(MPI_File_write(fh, buf, N / 2, MPI_INT, &st));
    CHECK_MPI(MPI_File_write(fh, buf + N / 2, N - N / 2, MPI_INT, &st));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)(rank + 1) * N * ISZ, "position %lld", (long long)pos);
    CHECK_MPI(MPI_File_seek(fh, -(MPI_Offset)N * (MPI_Offset)ISZ, MPI_SEEK_CUR));
    CHECK_MPI(MPI_File_read(fh, back, N, MPI_INT, &st));
    for (int i = 0; i < N; ++i) CHECK(back[i] == -(rank * N + i), "read[%d] = %d", i, back[i]);
    CHECK_MPI(MPI_File_seek(fh, 0, MPI_SEEK_END));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == fsize, "SEEK_END position %lld", (long long)pos);
    /* A read at the end: zero elements, not an error. */
    CHECK_MPI(MPI_File_read(fh, back, N, MPI_INT, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "read past the end got %d", count);

    /* Collective at explicit offsets and with the individual pointer. */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) buf[i] = 7 * (rank * N + i);
    CHECK_MPI(MPI_File_write_at_all(fh, (MPI_Offset)rank * N * ISZ, buf, N, MPI_INT, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == N, "write_at_all count %d", count);
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)peer * N * ISZ, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_all(fh, back, N, MPI_INT, &st));
    for (int i = 0; i < N; ++i) CHECK(back[i] == 7 * (peer * N + i), "read_all[%d] = %d", i, back[i]);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Non-blocking forms complete through MPI_Wait / MPI_Waitall. */
    MPI_Request req[2];
    for (int i = 0; i < N; ++i) buf[i] = 11 * (rank * N + i);
    CHECK_MPI(MPI_File_iwrite_at(fh, (MPI_Offset)rank * N * ISZ, buf, N, MPI_INT, &req[0]));
    CHECK_MPI(MPI_Wait(&req[0], &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == N, "iwrite_at count %d", count);
    CHECK_MPI(MPI_File_iwrite_at_all(fh, (MPI_Offset)rank * N * ISZ, buf, N, MPI_INT, &req[0]));
    CHECK_MPI(MPI_Waitall(1, req, MPI_STATUSES_IGNORE));
    CHECK_MPI(MPI_File_iread_at_all(fh, (MPI_Offset)peer * N * ISZ, back, N / 2, MPI_INT, &req[0]));
    CHECK_MPI(MPI_File_iread_at(fh, (MPI_Offset)(peer * N + N / 2) * ISZ, back + N / 2, N - N / 2, MPI_INT, &req[1]));
    CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; ++i) CHECK(back[i] == 11 * (peer * N + i), "iread[%d] = %d", i, back[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)rank * N * ISZ, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_iread(fh, back, N, MPI_INT, &req[0]));
    CHECK_MPI(MPI_Wait(&req[0], &st));
    for (int i = 0; i < N; ++i) CHECK(back[i] == 11 * (rank * N + i), "iread own[%d] = %d", i, back[i]);
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)rank * N * ISZ, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_iwrite_all(fh, buf, N, MPI_INT, &req[0]));
    CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)rank * N * ISZ, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_iread_all(fh, back, N, MPI_INT, &req[0]));
    CHECK_MPI(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
    CHECK(back[N - 1] == 11 * (rank * N + N - 1), "iread_all");

    /* Split collectives. */
    for (int i = 0; i < N; ++i) buf[i] = 13 * (rank * N + i);
    CHECK_MPI(MPI_File_write_at_all_begin(fh, (MPI_Offset)rank * N * ISZ, buf, N, MPI_INT));
    CHECK_CLASS(MPI_File_write_at_all_begin(fh, 0, buf, 1, MPI_INT), MPI_ERR_OTHER); /* one at a time */
    CHECK_MPI(MPI_File_write_at_all_end(fh, buf, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == N, "split write count %d", count);
    CHECK_CLASS(MPI_File_read_all_end(fh, back, &st), MPI_ERR_OTHER); /* no begin */
    CHECK_MPI(MPI_File_read_at_all_begin(fh, (MPI_Offset)peer * N * ISZ, back, N, MPI_INT));
    CHECK_MPI(MPI_File_read_at_all_end(fh, back, &st));
    for (int i = 0; i < N; ++i) CHECK(back[i] == 13 * (peer * N + i), "split read[%d] = %d", i, back[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)rank * N * ISZ, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_write_all_begin(fh, buf, N, MPI_INT));
    CHECK_MPI(MPI_File_write_all_end(fh, buf, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_seek(fh, (MPI_Offset)rank * N * ISZ, MPI_SEEK_SET));
    CHECK_MPI(MPI_File_read_all_begin(fh, back, N, MPI_INT));
    CHECK_MPI(MPI_File_read_all_end(fh, back, MPI_STATUS_IGNORE));
    CHECK(back[0] == 13 * rank * N, "split read_all");

    /* Size management: set_size shrinks, preallocate never does. */
    CHECK_MPI(MPI_File_set_size(fh, 100));
    CHECK_MPI(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == 100, "after set_size: %lld", (long long)fsize);
    MPI_Barrier(MPI_COMM_WORLD); /* everybody looked before the next change */
    CHECK_MPI(MPI_File_preallocate(fh, 4096));
    CHECK_MPI(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == 4096, "after preallocate: %lld", (long long)fsize);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_MPI(MPI_File_preallocate(fh, 10));
    CHECK_MPI(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == 4096, "preallocate shrank the file to %lld", (long long)fsize);

    /* Hints in use. */
    MPI_Info info;
    char value[MPI_MAX_INFO_VAL + 1];
    int flag;
    CHECK_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get(info, "cb_buffer_size", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && atoi(value) > 0, "cb_buffer_size hint missing");
    MPI_Info_free(&info);
    check_hint(fh, "romio_cb_write", "automatic");
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", "2");
    MPI_Info_set(info, "romio_cb_read", "disable");
    CHECK_MPI(MPI_File_set_info(fh, info));
    MPI_Info_free(&info);
    CHECK_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && atoi(value) == (size < 2 ? size : 2), "cb_nodes %s", flag ? value : "(none)");
    MPI_Info_free(&info);
    check_hint(fh, "romio_cb_read", "disable");
    /* A value the hint does not know is refused, and nothing of that info is applied. */
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_read", "enable");
    MPI_Info_set(info, "romio_cb_write", "sometimes");
    int rc = MPI_File_set_info(fh, info), cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_INFO_VALUE, "romio_cb_write=sometimes gave class %d, expected MPI_ERR_INFO_VALUE", cls);
    MPI_Info_free(&info);
    check_hint(fh, "romio_cb_read", "disable"); /* unchanged by the refused set_info */

    /* Error handlers: a user handler on the file; call_errhandler reaches it. */
    CHECK_MPI(MPI_File_create_errhandler(count_errors, &eh));
    CHECK_MPI(MPI_File_set_errhandler(fh, eh));
    CHECK_MPI(MPI_File_call_errhandler(fh, MPI_ERR_IO));
    CHECK(handler_calls == 1, "user file handler called %d times", handler_calls);
    CHECK_CLASS(MPI_File_read_at(fh, -1, back, 1, MPI_INT, &st), MPI_ERR_ARG);
    CHECK(handler_calls == 2, "handler not called for a bad offset");
    MPI_Errhandler got;
    CHECK_MPI(MPI_File_get_errhandler(fh, &got));
    CHECK(got == eh, "get_errhandler returned another handler");
    MPI_Errhandler_free(&got);
    /* Set on MPI_FILE_NULL: the default for files opened from now on. */
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    MPI_File none;
    CHECK_CLASS(MPI_File_open(MPI_COMM_WORLD, "/nonexistent-dir/x", MPI_MODE_RDONLY, MPI_INFO_NULL, &none),
                MPI_ERR_NO_SUCH_FILE);
    CHECK(handler_calls == 3, "default handler not used for open");
    CHECK_MPI(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&eh);

    CHECK_MPI(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close did not reset the handle");
    MPI_Barrier(MPI_COMM_WORLD);

    /* MPI_MODE_APPEND: both pointers start at the end (4096 bytes now). */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_APPEND, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_get_position(fh, &pos));
    CHECK(pos == 4096, "APPEND: individual pointer at %lld", (long long)pos);
    CHECK_MPI(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 4096, "APPEND: shared pointer at %lld", (long long)pos);
    /* Atomic mode: set, read back, and accesses still work under its locks. */
    int atomic = 0;
    CHECK_MPI(MPI_File_set_atomicity(fh, 1));
    CHECK_MPI(MPI_File_get_atomicity(fh, &atomic));
    CHECK(atomic == 1, "atomicity %d", atomic);
    for (int i = 0; i < N; ++i) buf[i] = 17 * (rank * N + i);
    CHECK_MPI(MPI_File_write_at(fh, 4096 + (MPI_Offset)rank * N * ISZ, buf, N, MPI_INT, &st));
    CHECK_MPI(MPI_File_read_at(fh, 4096 + (MPI_Offset)rank * N * ISZ, back, N, MPI_INT, &st));
    for (int i = 0; i < N; ++i) CHECK(back[i] == buf[i], "atomic read back [%d]", i);
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);

    /* MPI_MODE_DELETE_ON_CLOSE removes the file; MPI_File_delete a second one. */
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 removes it once every rank closed */
    CHECK(access(name, F_OK) != 0, "DELETE_ON_CLOSE left %s", name);
    CHECK_MPI(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    CHECK_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_MPI(MPI_File_delete(name, MPI_INFO_NULL));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(access(name, F_OK) != 0, "MPI_File_delete left %s", name);
    MPI_Finalize();
    return 0;
}
