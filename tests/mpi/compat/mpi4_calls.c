/* MPI-4 calls in common use outside the collectives: MPI_Info_get_string,
 * MPI_Info_create_env, MPI_Isendrecv(_replace), MPI_Comm_idup_with_info,
 * MPI_Comm_dup_with_info / set_info / get_info, generalized requests. */
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

static void info_calls(int argc, char **argv) {
    MPI_Info info;
    char value[16];
    int buflen, flag;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "color", "ultraviolet"));
    buflen = 0;
    CHECK_MPI(MPI_Info_get_string(info, "color", &buflen, value, &flag));
    CHECK(flag && buflen == 12, "get_string length query: flag %d buflen %d", flag, buflen);
    buflen = 4;
    CHECK_MPI(MPI_Info_get_string(info, "color", &buflen, value, &flag));
    CHECK(flag && buflen == 12 && strcmp(value, "ult") == 0, "truncated get_string: '%s' %d", value, buflen);
    buflen = sizeof value;
    CHECK_MPI(MPI_Info_get_string(info, "color", &buflen, value, &flag));
    CHECK(strcmp(value, "ultraviolet") == 0, "get_string: '%s'", value);
    buflen = sizeof value;
    CHECK_MPI(MPI_Info_get_string(info, "smell", &buflen, value, &flag));
    CHECK(!flag && buflen == (int)sizeof value, "missing key: flag %d buflen %d", flag, buflen);
    CHECK_MPI(MPI_Info_free(&info));

    buflen = sizeof value;
    CHECK_MPI(MPI_Info_get_string(MPI_INFO_ENV, "maxprocs", &buflen, value, &flag));
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(flag && atoi(value) == size, "MPI_INFO_ENV maxprocs '%s'", value);

    MPI_Info env;
    char command[1024];
    CHECK_MPI(MPI_Info_create_env(argc, argv, &env));
    buflen = sizeof command;
    CHECK_MPI(MPI_Info_get_string(env, "command", &buflen, command, &flag));
    CHECK(flag && strcmp(command, argv[0]) == 0, "Info_create_env command '%s'", flag ? command : "");
    CHECK_MPI(MPI_Info_free(&env));
}

static void isendrecv(int rank, int size) {
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[3] = {rank, rank * 10, rank * 100}, in[3] = {-1, -1, -1}, count = -1;
    MPI_Request r;
    MPI_Status st;
    CHECK_MPI(MPI_Isendrecv(out, 3, MPI_INT, next, 11, in, 3, MPI_INT, prev, 11, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL, "Isendrecv request not freed");
    CHECK(in[0] == prev && in[2] == prev * 100, "Isendrecv data %d %d", in[0], in[2]);
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 11, "Isendrecv status %d %d", st.MPI_SOURCE, st.MPI_TAG);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 3, "Isendrecv count %d", count);

    int buf[4] = {rank, rank + 1, rank + 2, rank + 3};
    CHECK_MPI(MPI_Isendrecv_replace(buf, 4, MPI_INT, next, 12, prev, 12, MPI_COMM_WORLD, &r));
    int flag = 0;
    while (!flag) CHECK_MPI(MPI_Test(&r, &flag, &st));
    CHECK(buf[0] == prev && buf[3] == prev + 3, "Isendrecv_replace data %d %d", buf[0], buf[3]);

    CHECK_MPI(MPI_Isendrecv(out, 1, MPI_INT, MPI_PROC_NULL, 13, in, 1, MPI_INT, MPI_PROC_NULL, 13, MPI_COMM_WORLD, &r));
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Isendrecv with MPI_PROC_NULL: source %d", st.MPI_SOURCE);
}

static void comm_info(void) {
    MPI_Info info, used;
    MPI_Comm a, b;
    MPI_Request r;
    char value[32];
    int buflen, flag;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &a, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_Comm_get_info(a, &used));
    buflen = sizeof value;
    CHECK_MPI(MPI_Info_get_string(used, "mpi_assert_no_any_tag", &buflen, value, &flag));
    CHECK(flag && strcmp(value, "true") == 0, "idup_with_info lost the hint");
    CHECK_MPI(MPI_Info_free(&used));
    int x = 1, sum = 0, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_MPI(MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, a));
    CHECK(sum == size, "Allreduce on the idup'ed communicator %d", sum);
    CHECK_MPI(MPI_Comm_dup_with_info(a, MPI_INFO_NULL, &b));
    CHECK_MPI(MPI_Comm_set_info(b, info));
    CHECK_MPI(MPI_Comm_get_info(b, &used));
    buflen = sizeof value;
    CHECK_MPI(MPI_Info_get_string(used, "mpi_assert_no_any_tag", &buflen, value, &flag));
    CHECK(flag, "Comm_set_info/get_info lost the hint");
    CHECK_MPI(MPI_Info_free(&used));
    CHECK_MPI(MPI_Info_free(&info));
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
}

/* Generalized requests. */
static int query_calls = 0, free_calls = 0;
static int query_fn(void *extra, MPI_Status *status) {
    ++query_calls;
    MPI_Status_set_elements(status, MPI_INT, *(int *)extra);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
static int free_fn(void *extra) {
    (void)extra;
    ++free_calls;
    return MPI_SUCCESS;
}
static int cancel_calls = 0, cancel_complete = -1;
static int cancel_fn(void *extra, int complete) {
    (void)extra;
    ++cancel_calls;
    cancel_complete = complete;
    return MPI_SUCCESS;
}

static void grequests(void) {
    static int elements = 5;
    MPI_Request r;
    MPI_Status st;
    int flag = 1, count = -1;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &elements, &r));
    CHECK_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "a generalized request completed before MPI_Grequest_complete");
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(cancel_calls == 1 && cancel_complete == 0, "MPI_Cancel: cancel_fn calls %d, complete %d", cancel_calls,
          cancel_complete);
    CHECK_MPI(MPI_Grequest_complete(r));
    /* Completed but not yet waited: free_fn has not run, and MPI_Cancel
     * still reaches cancel_fn, now told it completed (MPI-3.1 §12.2). */
    CHECK(free_calls == 0, "free_fn ran before Wait: %d", free_calls);
    CHECK_MPI(MPI_Cancel(&r));
    CHECK(cancel_calls == 2 && cancel_complete == 1, "MPI_Cancel after complete: cancel_fn calls %d, complete %d",
          cancel_calls, cancel_complete);
    CHECK_MPI(MPI_Wait(&r, &st));
    CHECK(r == MPI_REQUEST_NULL, "Wait did not free the generalized request");
    CHECK(query_calls == 1 && free_calls == 1, "query %d free %d", query_calls, free_calls);
    CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 5, "count from query_fn: %d", count);
    /* Request_free before completion: free_fn still runs once it completes. */
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &elements, &r));
    MPI_Request keep = r;
    CHECK_MPI(MPI_Request_free(&r));
    CHECK_MPI(MPI_Grequest_complete(keep));
    /* Progress (any MPI call, or the progress thread) completes it; wait
     * for that with a deadline. */
    const double deadline = MPI_Wtime() + 10.0;
    while (free_calls < 2 && MPI_Wtime() < deadline) {
        int f;
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_SELF, &f, MPI_STATUS_IGNORE);
    }
    CHECK(free_calls == 2, "free_fn after Request_free + complete: %d", free_calls);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    info_calls(argc, argv);
    isendrecv(rank, size);
    comm_info();
    grequests();
    MPI_Finalize();
    return 0;
}
