/* Results that third-party conformance suites check and that differ from
 * what MPICH and Open MPI return: balanced Dims_create, empty group
 * constructors, COMM_SELF attribute deletion order at Finalize, Type_dup's
 * copy callbacks, Error_string of an added class, MPI_ERROR left alone by
 * single-completion calls, Get_elements for types larger than INT_MAX, a
 * persistent send of a derived type, and count 0 / MPI_DATATYPE_NULL with
 * MPI_PROC_NULL. Runs at 1 and 2 ranks; the Finalize order is checked by
 * the delete callbacks themselves (a wrong order ends the job non-zero). */
#include "support/check.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void dims(void) {
    int d[2] = {0, 0};
    CHECK_MPI(MPI_Dims_create(72, 2, d));
    CHECK(d[0] == 9 && d[1] == 8, "Dims_create(72, 2) = %d x %d, expected 9 x 8", d[0], d[1]);
    int d3[3] = {0, 0, 0};
    CHECK_MPI(MPI_Dims_create(24, 3, d3));
    CHECK(d3[0] == 4 && d3[1] == 3 && d3[2] == 2, "Dims_create(24, 3) = %d x %d x %d", d3[0], d3[1], d3[2]);
    int fixed[3] = {0, 3, 0};
    CHECK_MPI(MPI_Dims_create(36, 3, fixed));
    CHECK(fixed[0] == 4 && fixed[1] == 3 && fixed[2] == 3, "Dims_create(36, {0,3,0}) = %d %d %d", fixed[0], fixed[1],
          fixed[2]);
    int big[2] = {0, 0};
    CHECK_MPI(MPI_Dims_create(1000000, 2, big));
    CHECK(big[0] == 1000 && big[1] == 1000, "Dims_create(1e6, 2) = %d x %d", big[0], big[1]);
    int prime[2] = {0, 0};
    CHECK_MPI(MPI_Dims_create(7, 2, prime));
    CHECK(prime[0] == 7 && prime[1] == 1, "Dims_create(7, 2) = %d x %d", prime[0], prime[1]);
}

static void empty_groups(void) {
    MPI_Group world, out;
    int result, size;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    CHECK_MPI(MPI_Group_incl(world, 0, NULL, &out));
    CHECK_MPI(MPI_Group_size(out, &size));
    CHECK(size == 0, "Group_incl n=0: size %d", size);
    CHECK_MPI(MPI_Group_compare(out, MPI_GROUP_EMPTY, &result));
    CHECK(result == MPI_IDENT, "Group_incl n=0 is not MPI_GROUP_EMPTY (%d)", result);
    CHECK_MPI(MPI_Group_free(&out));
    CHECK_MPI(MPI_Group_range_incl(world, 0, NULL, &out));
    CHECK_MPI(MPI_Group_size(out, &size));
    CHECK(size == 0, "Group_range_incl n=0: size %d", size);
    CHECK_MPI(MPI_Group_free(&out));
    CHECK_MPI(MPI_Group_excl(world, 0, NULL, &out));
    CHECK_MPI(MPI_Group_compare(out, world, &result));
    CHECK(result == MPI_IDENT, "Group_excl n=0 differs from the group");
    CHECK_MPI(MPI_Group_free(&out));
    CHECK_MPI(MPI_Group_range_excl(world, 0, NULL, &out));
    CHECK_MPI(MPI_Group_compare(out, world, &result));
    CHECK(result == MPI_IDENT, "Group_range_excl n=0 differs from the group");
    CHECK_MPI(MPI_Group_free(&out));
    /* On the empty group itself. */
    CHECK_MPI(MPI_Group_incl(MPI_GROUP_EMPTY, 0, NULL, &out));
    CHECK_MPI(MPI_Group_free(&out));
    CHECK_MPI(MPI_Group_free(&world));
}

/* COMM_SELF attributes: deleted at MPI_Finalize in reverse order of setting. */
enum { SELF_KEYS = 4 };
static int self_keys[SELF_KEYS];
static int deleted_count = 0;
static int self_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
    (void)comm;
    (void)keyval;
    (void)extra;
    const int index = (int)(size_t)value;
    const int expected = SELF_KEYS - 1 - deleted_count;
    if (index != expected) {
        fprintf(stderr, "COMM_SELF attribute %d deleted in position %d (expected %d): not reverse order\n", index,
                deleted_count, expected);
        fflush(stderr);
        _Exit(3);
    }
    ++deleted_count;
    return MPI_SUCCESS;
}

static void self_attributes(void) {
    /* Keyvals created in an order different from the setting order, so
     * neither keyval order nor its reverse is the setting order. */
    int order[SELF_KEYS] = {2, 0, 3, 1};
    for (int i = 0; i < SELF_KEYS; ++i)
        CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &self_keys[i], NULL));
    for (int i = 0; i < SELF_KEYS; ++i)
        CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[order[i]], (void *)(size_t)i));
}

/* Type_dup copies attributes through the copy callback, and fails with the
 * callback's error. */
static int copies = 0;
static int type_copy(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)t;
    (void)keyval;
    (void)extra;
    ++copies;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}
static int type_copy_fails(MPI_Datatype t, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)t;
    (void)keyval;
    (void)extra;
    (void)in;
    (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}
static int type_deletes = 0;
static int type_delete(MPI_Datatype t, int keyval, void *value, void *extra) {
    (void)t;
    (void)keyval;
    (void)value;
    (void)extra;
    ++type_deletes;
    return MPI_SUCCESS;
}

static void type_dup_attributes(void) {
    MPI_Datatype base, dup;
    int key, bad_key, flag;
    void *value;
    static char anchor[4];
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &base));
    CHECK_MPI(MPI_Type_create_keyval(type_copy, type_delete, &key, NULL));
    CHECK_MPI(MPI_Type_set_attr(base, key, anchor));
    CHECK_MPI(MPI_Type_dup(base, &dup));
    CHECK(copies == 1, "Type_dup called the copy callback %d times", copies);
    CHECK_MPI(MPI_Type_get_attr(dup, key, &value, &flag));
    CHECK(flag && value == anchor + 1, "the dup's attribute is not the copy callback's value");
    CHECK_MPI(MPI_Type_free(&dup));
    CHECK(type_deletes == 1, "Type_free ran %d delete callbacks, expected 1", type_deletes);

    CHECK_MPI(MPI_Type_create_keyval(type_copy_fails, MPI_TYPE_NULL_DELETE_FN, &bad_key, NULL));
    CHECK_MPI(MPI_Type_set_attr(base, bad_key, anchor));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    dup = MPI_DATATYPE_NULL;
    int rc = MPI_Type_dup(base, &dup);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    CHECK(rc != MPI_SUCCESS, "Type_dup succeeded although a copy callback failed");
    CHECK(dup == MPI_DATATYPE_NULL, "a failed Type_dup returned a type");
    CHECK_MPI(MPI_Type_delete_attr(base, bad_key));
    CHECK_MPI(MPI_Type_free(&base));
    CHECK(type_deletes == 3, "delete callbacks: %d, expected 3 (one from the failed dup's copy)", type_deletes);
    CHECK_MPI(MPI_Type_free_keyval(&key));
    CHECK_MPI(MPI_Type_free_keyval(&bad_key));
}

static void error_strings(void) {
    int cls, code, len = -1;
    char text[MPI_MAX_ERROR_STRING];
    CHECK_MPI(MPI_Add_error_class(&cls));
    memset(text, 'x', sizeof text);
    CHECK_MPI(MPI_Error_string(cls, text, &len));
    CHECK(len == 0 && text[0] == '\0', "Error_string of an added class: '%s' (%d)", text, len);
    CHECK_MPI(MPI_Add_error_code(cls, &code));
    CHECK_MPI(MPI_Error_string(code, text, &len));
    CHECK(len == 0, "Error_string of an added code: '%s'", text);
    CHECK_MPI(MPI_Add_error_string(code, "my error"));
    CHECK_MPI(MPI_Error_string(code, text, &len));
    CHECK(len == 8 && strcmp(text, "my error") == 0, "added string: '%s'", text);
}

static void status_error_kept(int rank, int size) {
    const int peer = rank ^ 1;
    MPI_Status s1, s2;
    MPI_Message msg;
    int out[2] = {11, 22}, in[2] = {0, 0}, count;
    /* From MPI_PROC_NULL on every rank. */
    s1.MPI_ERROR = MPI_ERR_DIMS;
    s2.MPI_ERROR = MPI_ERR_TOPOLOGY;
    CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &msg, &s1));
    CHECK(msg == MPI_MESSAGE_NO_PROC, "Mprobe(PROC_NULL) message");
    CHECK(s1.MPI_ERROR == MPI_ERR_DIMS, "Mprobe(PROC_NULL) wrote status.MPI_ERROR (%d)", s1.MPI_ERROR);
    CHECK_MPI(MPI_Mrecv(in, 0, MPI_INT, &msg, &s2));
    CHECK(s2.MPI_ERROR == MPI_ERR_TOPOLOGY, "Mrecv(PROC_NULL) wrote status.MPI_ERROR (%d)", s2.MPI_ERROR);
    CHECK(s2.MPI_SOURCE == MPI_PROC_NULL, "Mrecv(PROC_NULL) source %d", s2.MPI_SOURCE);
    if (size < 2 || peer >= size) return;
    if (rank % 2 == 0) {
        CHECK_MPI(MPI_Send(out, 2, MPI_INT, peer, 5, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(out, 2, MPI_INT, peer, 6, MPI_COMM_WORLD));
    } else {
        s1.MPI_ERROR = MPI_ERR_DIMS;
        s2.MPI_ERROR = MPI_ERR_TOPOLOGY;
        CHECK_MPI(MPI_Mprobe(peer, 5, MPI_COMM_WORLD, &msg, &s1));
        CHECK(s1.MPI_SOURCE == peer && s1.MPI_TAG == 5, "Mprobe status");
        CHECK(s1.MPI_ERROR == MPI_ERR_DIMS, "Mprobe wrote status.MPI_ERROR (%d)", s1.MPI_ERROR);
        CHECK_MPI(MPI_Get_count(&s1, MPI_INT, &count));
        CHECK(count == 2, "Mprobe count %d", count);
        CHECK_MPI(MPI_Mrecv(in, 2, MPI_INT, &msg, &s2));
        CHECK(in[0] == 11 && in[1] == 22, "Mrecv data");
        CHECK(s2.MPI_ERROR == MPI_ERR_TOPOLOGY, "Mrecv wrote status.MPI_ERROR (%d)", s2.MPI_ERROR);
        /* Improbe + Imrecv + Wait. */
        int flag = 0;
        s1.MPI_ERROR = MPI_ERR_DIMS;
        while (!flag) CHECK_MPI(MPI_Improbe(peer, 6, MPI_COMM_WORLD, &flag, &msg, &s1));
        CHECK(s1.MPI_ERROR == MPI_ERR_DIMS, "Improbe wrote status.MPI_ERROR (%d)", s1.MPI_ERROR);
        MPI_Request req;
        CHECK_MPI(MPI_Imrecv(in, 2, MPI_INT, &msg, &req));
        s2.MPI_ERROR = MPI_ERR_TOPOLOGY;
        CHECK_MPI(MPI_Wait(&req, &s2));
        CHECK(s2.MPI_ERROR == MPI_ERR_TOPOLOGY, "Wait after Imrecv wrote status.MPI_ERROR (%d)", s2.MPI_ERROR);
    }
}

/* Get_elements(_x) and Get_count on types larger than INT_MAX bytes (the
 * MPICH large-count checks; no buffer of that size is ever touched). The
 * count given to MPI_Status_set_elements(_x) is of basic elements, what
 * MPI_Get_elements then returns: `expected` of them make one `type`. */
static void check_set_elements(MPI_Datatype type, MPI_Count expected) {
    MPI_Status status;
    MPI_Count elements_x = -5;
    int elements = -5, count = -5;
    if (expected <= INT_MAX) {
        CHECK_MPI(MPI_Status_set_elements(&status, type, (int)expected));
        CHECK_MPI(MPI_Get_elements(&status, type, &elements));
        CHECK_MPI(MPI_Get_elements_x(&status, type, &elements_x));
        CHECK_MPI(MPI_Get_count(&status, type, &count));
        CHECK(elements == expected && elements_x == expected && count == 1,
              "set_elements: elements %d, elements_x %lld, count %d, expected %lld", elements, (long long)elements_x,
              count, (long long)expected);
    }
    CHECK_MPI(MPI_Status_set_elements_x(&status, type, expected));
    CHECK_MPI(MPI_Get_elements(&status, type, &elements));
    CHECK_MPI(MPI_Get_elements_x(&status, type, &elements_x));
    CHECK_MPI(MPI_Get_count(&status, type, &count));
    CHECK(elements == (expected > INT_MAX ? MPI_UNDEFINED : (int)expected), "set_elements_x: elements %d", elements);
    CHECK(elements_x == expected, "set_elements_x: elements_x %lld, expected %lld", (long long)elements_x,
          (long long)expected);
    CHECK(count == 1, "set_elements_x: count %d", count);
}

static void large_counts(void) {
    MPI_Datatype imax_contig, four_ints, imx4i, imx4i_rsz;
    CHECK_MPI(MPI_Type_contiguous(INT_MAX, MPI_CHAR, &imax_contig));
    CHECK_MPI(MPI_Type_commit(&imax_contig));
    CHECK_MPI(MPI_Type_contiguous(4, MPI_INT, &four_ints));
    CHECK_MPI(MPI_Type_commit(&four_ints));
    CHECK_MPI(MPI_Type_vector(INT_MAX / 2, 1, 3, four_ints, &imx4i));
    CHECK_MPI(MPI_Type_commit(&imx4i));
    CHECK_MPI(MPI_Type_create_resized(imx4i, INT_MAX, -1024, &imx4i_rsz));
    CHECK_MPI(MPI_Type_commit(&imx4i_rsz));
    int size;
    MPI_Count size_x, lb_x, extent_x;
    CHECK_MPI(MPI_Type_size(imx4i, &size));
    CHECK(size == MPI_UNDEFINED, "Type_size of a > INT_MAX type: %d", size);
    CHECK_MPI(MPI_Type_size_x(imx4i, &size_x));
    CHECK(size_x == 4LL * 4 * (INT_MAX / 2), "Type_size_x %lld", (long long)size_x);
    CHECK_MPI(MPI_Type_get_true_extent_x(imx4i_rsz, &lb_x, &extent_x));
    CHECK(lb_x == 0 && extent_x == 3LL * 16 * ((INT_MAX / 2) - 1) + 16, "true extent %lld", (long long)extent_x);

    MPI_Status status;
    int elements, count;
    MPI_Count elements_x;
    CHECK_MPI(MPI_Status_set_elements(&status, MPI_INT, 10));
    CHECK_MPI(MPI_Get_elements(&status, MPI_INT, &elements));
    CHECK_MPI(MPI_Get_elements_x(&status, MPI_INT, &elements_x));
    CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
    CHECK(elements == 10 && elements_x == 10 && count == 10, "simple set_elements");
    check_set_elements(imax_contig, INT_MAX);
    check_set_elements(four_ints, 4);
    check_set_elements(imx4i, 4LL * (INT_MAX / 2));
    check_set_elements(imx4i_rsz, 4LL * (INT_MAX / 2));
    /* More bytes than INT_MAX of MPI_CHAR. */
    CHECK_MPI(MPI_Status_set_elements_x(&status, MPI_CHAR, 3LL * INT_MAX + 4));
    CHECK_MPI(MPI_Get_elements_x(&status, MPI_CHAR, &elements_x));
    CHECK_MPI(MPI_Get_elements(&status, MPI_CHAR, &elements));
    CHECK_MPI(MPI_Get_count(&status, MPI_CHAR, &count));
    CHECK(elements_x == 3LL * INT_MAX + 4 && elements == MPI_UNDEFINED && count == MPI_UNDEFINED,
          "3*INT_MAX+4 chars: elements_x %lld elements %d count %d", (long long)elements_x, elements, count);
    MPI_Type_free(&imax_contig);
    MPI_Type_free(&four_ints);
    MPI_Type_free(&imx4i);
    MPI_Type_free(&imx4i_rsz);
}

/* A persistent send and receive of a derived (non-contiguous) type, the
 * type freed after the request was made (allowed: the request keeps it). */
static void persistent_derived(int rank, int size) {
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Datatype column;
    CHECK_MPI(MPI_Type_vector(4, 1, 3, MPI_INT, &column));
    CHECK_MPI(MPI_Type_commit(&column));
    int out[12], in[12];
    MPI_Request reqs[2];
    CHECK_MPI(MPI_Send_init(out, 1, column, next, 9, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Recv_init(in, 1, column, prev, 9, MPI_COMM_WORLD, &reqs[1]));
    CHECK_MPI(MPI_Type_free(&column));
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 12; ++i) {
            out[i] = 100 * round + 10 * rank + i;
            in[i] = -1;
        }
        CHECK_MPI(MPI_Start(&reqs[1]));
        CHECK_MPI(MPI_Start(&reqs[0]));
        CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 12; ++i) {
            const int want = i % 3 == 0 ? 100 * round + 10 * prev + i : -1;
            CHECK(in[i] == want, "round %d: in[%d] = %d, expected %d", round, i, in[i], want);
        }
    }
    CHECK_MPI(MPI_Request_free(&reqs[0]));
    CHECK_MPI(MPI_Request_free(&reqs[1]));

    /* Large (rendezvous) and synchronous, derived type kept alive. */
    enum { N = 40000 };
    int *big_out = malloc(2 * N * sizeof(int)), *big_in = malloc(N * sizeof(int));
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(N, 1, 2, MPI_INT, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    CHECK_MPI(MPI_Ssend_init(big_out, 1, every_other, next, 10, MPI_COMM_WORLD, &reqs[0]));
    CHECK_MPI(MPI_Recv_init(big_in, N, MPI_INT, prev, 10, MPI_COMM_WORLD, &reqs[1]));
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 2 * N; ++i) big_out[i] = i % 2 ? -1 : round + rank + i / 2;
        CHECK_MPI(MPI_Startall(2, reqs));
        CHECK_MPI(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
        CHECK(big_in[0] == round + prev && big_in[N - 1] == round + prev + N - 1, "round %d: large persistent data",
              round);
    }
    CHECK_MPI(MPI_Request_free(&reqs[0]));
    CHECK_MPI(MPI_Request_free(&reqs[1]));
    MPI_Type_free(&every_other);
    free(big_out);
    free(big_in);
}

static void proc_null_null_type(void) {
    MPI_Status status;
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &status));
    CHECK(status.MPI_SOURCE == MPI_PROC_NULL, "source %d", status.MPI_SOURCE);
    CHECK_MPI(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD));
    MPI_Request r;
    CHECK_MPI(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    /* Still an error where something could move. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Send(NULL, 1, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    dims();
    empty_groups();
    type_dup_attributes();
    error_strings();
    status_error_kept(rank, size);
    large_counts();
    persistent_derived(rank, size);
    proc_null_null_type();
    self_attributes();
    MPI_Finalize();
    if (deleted_count != SELF_KEYS) {
        fprintf(stderr, "MPI_Finalize deleted %d COMM_SELF attributes, expected %d\n", deleted_count, SELF_KEYS);
        return 4;
    }
    return 0;
}
