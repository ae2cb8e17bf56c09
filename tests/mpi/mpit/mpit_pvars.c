/* MPI_T's performance variables: sessions, handles, start/stop, read, write,
 * reset, and their wrong uses; then the queue lengths while real messages
 * wait (see mpit_calls.c). */
#include "mpit/mpit_checks.h"

#include <string.h>
#include <time.h>

static int pvar_index_of(const char *name, int var_class) {
    int index = -1;
    CHECK_T_OK(MPI_T_pvar_get_index(name, var_class, &index));
    return index;
}

static void check_descriptions(int num) {
    for (int i = 0; i < num; ++i) {
        char name[128], desc[512];
        int name_len = sizeof name, desc_len = sizeof desc, verbosity, var_class, bind, readonly, continuous, atomic;
        MPI_Datatype type;
        MPI_T_enum e;
        CHECK_T_OK(MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type, &e, desc, &desc_len, &bind,
                                       &readonly, &continuous, &atomic));
        CHECK(strncmp(name, "ftmpi_", 6) == 0 && strlen(desc) > 10, "pvar %d: %s '%s'", i, name, desc);
        CHECK(bind == MPI_T_BIND_NO_OBJECT && e == MPI_T_ENUM_NULL && atomic, "pvar %s: bind %d", name, bind);
        CHECK(type == MPI_UNSIGNED_LONG || type == MPI_UNSIGNED_LONG_LONG, "pvar %s: an unexpected type", name);
        CHECK(pvar_index_of(name, var_class) == i, "pvar %s: get_index disagrees with %d", name, i);
        int index = 0;
        CHECK_T(MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_TIMER, &index), MPI_T_ERR_INVALID_NAME);
    }
    int index = 0;
    CHECK_T(MPI_T_pvar_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_pvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_pvar_get_index("ftmpi_no_such_pvar", MPI_T_PVAR_CLASS_LEVEL, &index), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_pvar_get_index(NULL, MPI_T_PVAR_CLASS_LEVEL, &index), MPI_T_ERR_INVALID);
}

/* A counter started and stopped by its handle, written and reset. */
static void check_counter(MPI_T_pvar_session s, MPI_T_pvar_handle h) {
    unsigned long long v = 99;
    CHECK_T_OK(MPI_T_pvar_read(s, h, &v));
    CHECK(v == 0, "a new counter reads %llu", v);
    CHECK_T_OK(MPI_T_pvar_start(s, h));
    CHECK_T_OK(MPI_T_pvar_start(s, h)); /* already started: nothing changes */
    CHECK_T_OK(MPI_T_pvar_read(s, h, &v));
    CHECK(v == 0, "no process failed, the counter reads %llu", v);
    v = 7;
    CHECK_T_OK(MPI_T_pvar_write(s, h, &v));
    CHECK_T_OK(MPI_T_pvar_read(s, h, &v));
    CHECK(v == 7, "the counter reads %llu after writing 7", v);
    CHECK_T_OK(MPI_T_pvar_readreset(s, h, &v));
    CHECK(v == 7, "readreset read %llu", v);
    CHECK_T_OK(MPI_T_pvar_read(s, h, &v));
    CHECK(v == 0, "the counter reads %llu after readreset", v);
    v = 3;
    CHECK_T_OK(MPI_T_pvar_write(s, h, &v));
    CHECK_T_OK(MPI_T_pvar_stop(s, h));
    CHECK_T_OK(MPI_T_pvar_stop(s, h));
    CHECK_T_OK(MPI_T_pvar_read(s, h, &v));
    CHECK(v == 3, "the stopped counter reads %llu", v);
    CHECK_T_OK(MPI_T_pvar_reset(s, h));
    CHECK_T_OK(MPI_T_pvar_read(s, h, &v));
    CHECK(v == 0, "the counter reads %llu after reset", v);
}

/* A read-only continuous level: read only. */
static void check_level(MPI_T_pvar_session s, MPI_T_pvar_handle h) {
    unsigned long v = 0;
    CHECK_T_OK(MPI_T_pvar_read(s, h, &v));
    CHECK_T(MPI_T_pvar_start(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_T(MPI_T_pvar_stop(s, h), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_T(MPI_T_pvar_write(s, h, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(MPI_T_pvar_reset(s, h), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(MPI_T_pvar_readreset(s, h, &v), MPI_T_ERR_PVAR_NO_WRITE);
}

void check_pvar_calls(void) {
    int num = 0, count = 0;
    CHECK_T_OK(MPI_T_pvar_get_num(&num));
    CHECK(num == 3, "%d performance variables", num);
    check_descriptions(num);

    MPI_T_pvar_session s = MPI_T_PVAR_SESSION_NULL, other = MPI_T_PVAR_SESSION_NULL;
    CHECK_T_OK(MPI_T_pvar_session_create(&s));
    CHECK_T_OK(MPI_T_pvar_session_create(&other));
    CHECK(s != MPI_T_PVAR_SESSION_NULL && other != s, "pvar_session_create");
    MPI_T_pvar_handle failures, posted, unexpected, elsewhere, none = MPI_T_PVAR_HANDLE_NULL;
    CHECK_T_OK(MPI_T_pvar_handle_alloc(s, pvar_index_of("ftmpi_failures_declared", MPI_T_PVAR_CLASS_COUNTER), NULL,
                                       &failures, &count));
    CHECK(count == 1, "count %d", count);
    CHECK_T_OK(MPI_T_pvar_handle_alloc(s, pvar_index_of("ftmpi_posted_queue_length", MPI_T_PVAR_CLASS_LEVEL), NULL,
                                       &posted, &count));
    CHECK_T_OK(MPI_T_pvar_handle_alloc(s, pvar_index_of("ftmpi_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL), NULL,
                                       &unexpected, &count));
    CHECK_T_OK(MPI_T_pvar_handle_alloc(other, 0, NULL, &elsewhere, &count));
    check_counter(s, failures);
    check_level(s, posted);
    check_level(s, unexpected);

    /* Every handle at once: those that cannot are left alone. */
    unsigned long long v = 0;
    CHECK_T_OK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_T_OK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_T_OK(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK_T(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_write(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_readreset(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);

    /* Wrong sessions, handles, indices and arguments. */
    CHECK_T(MPI_T_pvar_read(s, elsewhere, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_start(s, none), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, failures, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(MPI_T_pvar_read(s, failures, NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_pvar_handle_alloc(s, num, NULL, &none, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, 0, NULL, &none, &count), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(MPI_T_pvar_handle_alloc(s, 0, NULL, NULL, &count), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_pvar_handle_free(other, &failures), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_session_create(NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_pvar_get_num(NULL), MPI_T_ERR_INVALID);

    CHECK_T_OK(MPI_T_pvar_handle_free(s, &failures));
    CHECK(failures == MPI_T_PVAR_HANDLE_NULL, "pvar_handle_free left the handle set");
    CHECK_T(MPI_T_pvar_handle_free(s, &failures), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T_OK(MPI_T_pvar_handle_free(s, &posted));
    /* A session freed with a handle still allocated frees it. */
    CHECK_T_OK(MPI_T_pvar_session_free(&s));
    CHECK(s == MPI_T_PVAR_SESSION_NULL, "pvar_session_free left the session set");
    CHECK_T(MPI_T_pvar_session_free(&s), MPI_T_ERR_INVALID_SESSION);
    CHECK_T_OK(MPI_T_pvar_session_free(&other));
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned long level(MPI_T_pvar_session s, MPI_T_pvar_handle h) {
    unsigned long v = 0;
    CHECK_T_OK(MPI_T_pvar_read(s, h, &v));
    return v;
}

/* Polls (probing, so the library makes progress) until h reads at least
 * `least`, for up to 20 s; returns the last value read. */
static unsigned long wait_level(MPI_T_pvar_session s, MPI_T_pvar_handle h, unsigned long least) {
    const double deadline = now() + 20;
    unsigned long v = level(s, h);
    while (v < least && now() < deadline) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        v = level(s, h);
    }
    return v;
}

void check_queue_pvars(int rank, int size) {
    MPI_T_pvar_session s;
    MPI_T_pvar_handle posted, unexpected;
    int count;
    CHECK_T_OK(MPI_T_pvar_session_create(&s));
    CHECK_T_OK(MPI_T_pvar_handle_alloc(s, pvar_index_of("ftmpi_posted_queue_length", MPI_T_PVAR_CLASS_LEVEL), NULL,
                                       &posted, &count));
    CHECK_T_OK(MPI_T_pvar_handle_alloc(s, pvar_index_of("ftmpi_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL), NULL,
                                       &unexpected, &count));

    /* A posted receive nothing matches yet, on every rank. */
    const unsigned long posted_before = level(s, posted);
    MPI_Request r;
    int in = 0, out = 5;
    CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, rank, 21, MPI_COMM_WORLD, &r));
    CHECK(level(s, posted) == posted_before + 1, "posted queue %lu after a receive, %lu before", level(s, posted),
          posted_before);
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, rank, 21, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    CHECK(in == 5 && level(s, posted) == posted_before, "posted queue %lu after the match", level(s, posted));

    /* Three messages from rank 1 wait at rank 0 until it receives them.
     * Rank 1 sends them only once rank 0 has read the level before: they
     * may arrive while rank 0 is still in an earlier call. */
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (size >= 2 && rank == 1) {
        int go = 0;
        CHECK_MPI(MPI_Recv(&go, 1, MPI_INT, 0, 12346, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int k = 0; k < 3; ++k) CHECK_MPI(MPI_Send(&k, 1, MPI_INT, 0, 12345, MPI_COMM_WORLD));
    }
    if (size >= 2 && rank == 0) {
        const unsigned long before = level(s, unexpected);
        const int go = 1;
        CHECK_MPI(MPI_Send(&go, 1, MPI_INT, 1, 12346, MPI_COMM_WORLD));
        const unsigned long peak = wait_level(s, unexpected, before + 3);
        CHECK(peak >= before + 3, "unexpected queue %lu with 3 messages waiting, %lu before", peak, before);
        for (int k = 0; k < 3; ++k) {
            CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, 1, 12345, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(in == k, "message %d carried %d", k, in);
        }
        CHECK(level(s, unexpected) + 3 <= peak, "unexpected queue %lu after the receives, %lu before them",
              level(s, unexpected), peak);
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    CHECK_T_OK(MPI_T_pvar_session_free(&s));
}
