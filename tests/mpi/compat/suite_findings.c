/* What MPICH's test suite (test/mpi) found wrong, each checked the way it
 * checks it:
 *   - attr/attrend2: MPI_Finalized is false inside the delete callbacks
 *     MPI_Finalize runs on MPI_COMM_SELF's attributes, true after it;
 *   - attr/keyval_double_free_win: a window keyval freed while windows
 *     still carry attributes under it keeps its delete callback for them,
 *     and freeing it again (from the callback, or a copy of the handle)
 *     is not an error, as for communicator and datatype keyvals;
 *   - info/infocreateenv: MPI_Info_create_env gives the same keys and
 *     values before MPI_Init, after it, and after MPI_Finalize;
 *   - rma/rmanull: MPI_PROC_NULL is a valid target of MPI_Win_lock,
 *     _unlock, _flush and _flush_local. */
#include "support/check.h"

#include <string.h>

static const char *const env_keys[] = {"command", "argv", "maxprocs", "soft",        "host",
                                       "arch",    "wdir", "file",     "thread_level"};
enum { ENV_KEYS = sizeof env_keys / sizeof env_keys[0] };

/* The number of keys whose presence or value differs. */
static int info_differences(MPI_Info a, MPI_Info b) {
    int differences = 0;
    for (int i = 0; i < ENV_KEYS; ++i) {
        char va[MPI_MAX_INFO_VAL], vb[MPI_MAX_INFO_VAL];
        int la = MPI_MAX_INFO_VAL, lb = MPI_MAX_INFO_VAL, fa = 0, fb = 0;
        MPI_Info_get_string(a, env_keys[i], &la, va, &fa);
        MPI_Info_get_string(b, env_keys[i], &lb, vb, &fb);
        if (fa != fb || (fa && strcmp(va, vb) != 0)) {
            printf("MPI_Info_create_env: key %s differs (%s / %s)\n", env_keys[i], fa ? va : "(absent)",
                   fb ? vb : "(absent)");
            ++differences;
        }
    }
    return differences;
}

static int win_deletes = 0;
static int win_delete(MPI_Win win, int keyval, void *value, void *extra) {
    (void)win, (void)value, (void)extra;
    ++win_deletes;
    return MPI_Win_free_keyval(&keyval);
}

static void window_keyval_outlives_free(void) {
    MPI_Win wins[2];
    int mem[2];
    for (int i = 0; i < 2; ++i)
        CHECK_MPI(MPI_Win_create(&mem[i], sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wins[i]));
    int keyval = MPI_KEYVAL_INVALID;
    CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &keyval, NULL));
    int copy = keyval;
    CHECK_MPI(MPI_Win_set_attr(wins[0], keyval, NULL));
    CHECK_MPI(MPI_Win_set_attr(wins[1], keyval, NULL));
    CHECK_MPI(MPI_Win_free(&wins[0]));
    CHECK(win_deletes == 1, "%d delete callbacks after the first MPI_Win_free, expected 1", win_deletes);
    CHECK_MPI(MPI_Win_free_keyval(&keyval));
    CHECK(keyval == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval left the handle at %d", keyval);
    CHECK_MPI(MPI_Win_free_keyval(&copy));
    CHECK_MPI(MPI_Win_free(&wins[1]));
    CHECK(win_deletes == 2, "%d delete callbacks after both windows, expected 2 (a freed keyval keeps its callback)",
          win_deletes);
}

static void proc_null_lock_target(void) {
    int mem = 0;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(&mem, sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win));
    CHECK_MPI(MPI_Put(&mem, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    CHECK_MPI(MPI_Win_flush(MPI_PROC_NULL, win));
    CHECK_MPI(MPI_Win_flush_local(MPI_PROC_NULL, win));
    CHECK_MPI(MPI_Win_unlock(MPI_PROC_NULL, win));
    CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CHECK_CLASS(MPI_Win_lock(12345, MPI_PROC_NULL, 0, win), MPI_ERR_LOCKTYPE);
    CHECK_MPI(MPI_Win_free(&win));
}

static int finalized_in_callback = -1;
static int self_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
    (void)comm, (void)keyval, (void)value, (void)extra;
    MPI_Finalized(&finalized_in_callback);
    return MPI_SUCCESS;
}

int main(int argc, char **argv) {
    MPI_Info before, after_init, after_finalize;
    MPI_Info_create_env(argc, argv, &before);
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    CHECK_MPI(MPI_Info_create_env(argc, argv, &after_init));
    CHECK(info_differences(before, after_init) == 0, "MPI_Info_create_env differs before and after MPI_Init");

    window_keyval_outlives_free();
    proc_null_lock_target();

    int self_key = MPI_KEYVAL_INVALID;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &self_key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, self_key, NULL));
    CHECK_MPI(MPI_Comm_free_keyval(&self_key));
    MPI_Finalize();

    int finalized = 0;
    MPI_Finalized(&finalized);
    MPI_Info_create_env(argc, argv, &after_finalize);
    int errors = 0;
    if (finalized_in_callback != 0) {
        printf("rank %d: FAILED: MPI_Finalized gave %d in a delete callback of MPI_Finalize, expected 0\n", rank,
               finalized_in_callback);
        ++errors;
    }
    if (finalized != 1) {
        printf("rank %d: FAILED: MPI_Finalized gave %d after MPI_Finalize, expected 1\n", rank, finalized);
        ++errors;
    }
    if (info_differences(before, after_finalize) != 0) {
        printf("rank %d: FAILED: MPI_Info_create_env differs before MPI_Init and after MPI_Finalize\n", rank);
        ++errors;
    }
    MPI_Info_free(&before);
    MPI_Info_free(&after_init);
    MPI_Info_free(&after_finalize);
    return errors == 0 ? 0 : 1;
}
