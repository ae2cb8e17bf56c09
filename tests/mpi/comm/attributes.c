/* Attributes: keyvals with copy/delete callbacks on dup and free, the
 * predefined copy functions, replacing and deleting, a freed keyval kept
 * alive by its attribute, the MPI-1 names, predefined attributes of
 * MPI_COMM_WORLD, and datatype attributes. */
#include "support/check.h"

static int copies, deletes;
static void *last_deleted;

static int counting_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag) {
    (void)old;
    (void)key;
    CHECK(extra == (void *)&copies, "copy callback got the wrong extra_state");
    ++copies;
    *(void **)out = (char *)in + 1; /* the copy is visibly different */
    *flag = 1;
    return MPI_SUCCESS;
}

static int counting_delete(MPI_Comm comm, int key, void *value, void *extra) {
    (void)comm;
    (void)key;
    (void)extra;
    ++deletes;
    last_deleted = value;
    return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag) {
    (void)old, (void)key, (void)extra, (void)in, (void)out, (void)flag;
    return MPI_ERR_OTHER;
}

static int type_deletes;
static int type_delete(MPI_Datatype t, int key, void *value, void *extra) {
    (void)t, (void)key, (void)value, (void)extra;
    ++type_deletes;
    return MPI_SUCCESS;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Predefined attributes of MPI_COMM_WORLD. */
    int *value, flag;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag));
    CHECK(flag && *value >= 32767, "MPI_TAG_UB missing or too small (%d)", flag ? *value : -1);
    const int tag_ub = *value;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &value, &flag));
    CHECK(flag && (*value == MPI_PROC_NULL || (*value >= 0 && *value < size)), "MPI_HOST");
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &value, &flag));
    CHECK(flag, "MPI_IO missing");
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag));
    CHECK(flag && (*value == 0 || *value == 1), "MPI_WTIME_IS_GLOBAL");
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &value, &flag));
    CHECK(flag && *value == 0, "MPI_APPNUM");
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag));
    CHECK(flag && *value >= size, "MPI_UNIVERSE_SIZE %d", flag ? *value : -1);
    /* A tag at MPI_TAG_UB works. */
    int token = rank, got = -1;
    CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, rank, tag_ub, &got, 1, MPI_INT, rank, tag_ub, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(got == rank, "message at MPI_TAG_UB");

    /* A counting keyval: dup copies, free deletes. */
    int key;
    static char base[8];
    CHECK_MPI(MPI_Comm_create_keyval(counting_copy, counting_delete, &key, &copies));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, key, base));
    void *v;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag));
    CHECK(flag && v == base, "get after set");
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(copies == 1, "copy callback ran %d times on dup", copies);
    CHECK_MPI(MPI_Comm_get_attr(dup, key, &v, &flag));
    CHECK(flag && v == base + 1, "the dup's attribute is not the copy callback's value");
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(deletes == 1 && last_deleted == base + 1, "delete callback on free: %d calls", deletes);

    /* Replacing calls delete on the old value; delete_attr on the new one. */
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, key, base + 2));
    CHECK(deletes == 2 && last_deleted == base, "replacing did not delete the old value");
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, key));
    CHECK(deletes == 3 && last_deleted == base + 2, "delete_attr did not call the callback");
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag));
    CHECK(!flag, "attribute still there after delete");
    CHECK_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, key), MPI_ERR_KEYVAL);

    /* Predefined copy functions: NULL_COPY drops, DUP_FN shares the value. */
    int null_key, dup_key;
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &null_key, NULL));
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dup_key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, null_key, base + 3));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, dup_key, base + 4));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_get_attr(dup, null_key, &v, &flag));
    CHECK(!flag, "MPI_COMM_NULL_COPY_FN copied");
    CHECK_MPI(MPI_Comm_get_attr(dup, dup_key, &v, &flag));
    CHECK(flag && v == base + 4, "MPI_COMM_DUP_FN did not copy the value");
    /* The dup has no predefined attributes but the key is still valid. */
    CHECK_MPI(MPI_Comm_get_attr(dup, key, &v, &flag));
    CHECK(!flag, "attribute appeared on a dup");

    /* A freed keyval lives while an attribute uses it: delete still runs. */
    CHECK_MPI(MPI_Comm_set_attr(dup, key, base + 5));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    CHECK(key == MPI_KEYVAL_INVALID, "free_keyval did not reset the key");
    const int before = deletes;
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK(deletes == before + 1 && last_deleted == base + 5, "delete callback of a freed keyval did not run");

    /* A failing copy callback makes the dup fail, and leaves no communicator. */
    int bad_key;
    CHECK_MPI(MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &bad_key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, bad_key, base));
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm failed = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(MPI_COMM_SELF, &failed);
    CHECK(rc != MPI_SUCCESS, "dup succeeded although a copy callback failed");
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, bad_key));
    CHECK_MPI(MPI_Comm_free_keyval(&bad_key));

    /* MPI-1 names. */
    int old_key;
    CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &old_key, NULL));
    CHECK_MPI(MPI_Attr_put(MPI_COMM_WORLD, old_key, base + 6));
    CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, old_key, &v, &flag));
    CHECK(flag && v == base + 6, "MPI_Attr_get");
    CHECK_MPI(MPI_Attr_delete(MPI_COMM_WORLD, old_key));
    CHECK_MPI(MPI_Keyval_free(&old_key));

    /* Bad keys. */
    CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, 123456, base), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, base), MPI_ERR_KEYVAL);
    CHECK_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, 123456, &v, &flag), MPI_ERR_KEYVAL);
    int predefined = MPI_TAG_UB;
    CHECK_CLASS(MPI_Comm_free_keyval(&predefined), MPI_ERR_KEYVAL);

    /* Datatype attributes. */
    int tkey;
    CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &tkey, NULL));
    CHECK_MPI(MPI_Type_set_attr(MPI_INT, tkey, base + 7));
    CHECK_MPI(MPI_Type_get_attr(MPI_INT, tkey, &v, &flag));
    CHECK(flag && v == base + 7, "MPI_Type_get_attr");
    CHECK_MPI(MPI_Type_get_attr(MPI_DOUBLE, tkey, &v, &flag));
    CHECK(!flag, "attribute on the wrong type");
    CHECK_MPI(MPI_Type_delete_attr(MPI_INT, tkey));
    CHECK(type_deletes == 1, "type delete callback ran %d times", type_deletes);
    CHECK_MPI(MPI_Type_free_keyval(&tkey));

    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, null_key));
    CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, dup_key));
    CHECK_MPI(MPI_Comm_free_keyval(&null_key));
    CHECK_MPI(MPI_Comm_free_keyval(&dup_key));
    MPI_Finalize();
    return 0;
}
