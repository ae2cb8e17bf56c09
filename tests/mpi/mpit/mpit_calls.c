/* MPI_T, the tool information interface: every call, before MPI_Init, during
 * the job and after MPI_Finalize, with the standard's error codes for the
 * wrong uses, control variables read and written, and the performance
 * variables counting real messages (2 ranks: rank 1 sends rank 0 messages
 * it has not posted receives for yet). */
#include "mpit/mpit_checks.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int cvar_index_of(const char *name) {
    int index = -1;
    CHECK_T_OK(MPI_T_cvar_get_index(name, &index));
    return index;
}

/* Every control variable's description, index, enumeration and value. */
static int check_every_cvar(void) {
    int num = 0;
    CHECK_T_OK(MPI_T_cvar_get_num(&num));
    CHECK(num >= 40, "only %d control variables (the settings table has more)", num);
    for (int i = 0; i < num; ++i) {
        char name[256], desc[1024];
        int name_len = 0, desc_len = 0, verbosity = 0, bind = 0, scope = 0;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        MPI_T_enum e = MPI_T_ENUM_NULL;
        /* The lengths alone first (null buffers), then the strings. */
        CHECK_T_OK(MPI_T_cvar_get_info(i, NULL, &name_len, NULL, NULL, NULL, NULL, &desc_len, NULL, NULL));
        CHECK(name_len > 1 && name_len <= (int)sizeof name, "cvar %d: name length %d", i, name_len);
        CHECK(desc_len > 1 && desc_len <= (int)sizeof desc, "cvar %d: description length %d", i, desc_len);
        int want_name = name_len, want_desc = desc_len;
        name_len = sizeof name;
        desc_len = sizeof desc;
        CHECK_T_OK(MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &e, desc, &desc_len, &bind, &scope));
        CHECK(name_len == want_name && (int)strlen(name) + 1 == name_len, "cvar %d: name %s, length %d", i, name,
              name_len);
        CHECK(desc_len == want_desc && strlen(desc) > 10, "cvar %d (%s): description '%s'", i, name, desc);
        CHECK(strncmp(name, "FTMPI_", 6) == 0, "cvar %d: name %s is not a FTMPI_ variable", i, name);
        CHECK(verbosity >= MPI_T_VERBOSITY_USER_BASIC && verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL,
              "cvar %s: verbosity %d", name, verbosity);
        CHECK(bind == MPI_T_BIND_NO_OBJECT, "cvar %s: bind %d", name, bind);
        CHECK(scope == MPI_T_SCOPE_READONLY || scope == MPI_T_SCOPE_LOCAL || scope == MPI_T_SCOPE_ALL ||
                  scope == MPI_T_SCOPE_ALL_EQ,
              "cvar %s: scope %d", name, scope);
        CHECK(type == MPI_INT || type == MPI_UNSIGNED_LONG || type == MPI_CHAR, "cvar %s: an unexpected type", name);
        CHECK(cvar_index_of(name) == i, "cvar %s: get_index disagrees with %d", name, i);

        if (e != MPI_T_ENUM_NULL) {
            int items = 0;
            char ename[128];
            int ename_len = sizeof ename;
            CHECK(type == MPI_INT, "cvar %s: an enumeration of another type than MPI_INT", name);
            CHECK_T_OK(MPI_T_enum_get_info(e, &items, ename, &ename_len));
            CHECK(items >= 2, "enum %s: %d items", ename, items);
            for (int k = 0; k < items; ++k) {
                int value = -1;
                char item[128];
                int item_len = sizeof item;
                CHECK_T_OK(MPI_T_enum_get_item(e, k, &value, item, &item_len));
                CHECK(value == k && item_len > 1, "enum %s: item %d is %d '%s'", ename, k, value, item);
            }
            CHECK_T(MPI_T_enum_get_item(e, items, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
            CHECK_T(MPI_T_enum_get_item(e, -1, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
        }

        MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
        int count = 0;
        CHECK_T_OK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        CHECK(h != MPI_T_CVAR_HANDLE_NULL && count >= 1, "cvar %s: handle count %d", name, count);
        char value[4096];
        CHECK(count <= (int)sizeof value, "cvar %s: count %d", name, count);
        CHECK_T_OK(MPI_T_cvar_read(h, value));
        CHECK_T_OK(MPI_T_cvar_handle_free(&h));
        CHECK(h == MPI_T_CVAR_HANDLE_NULL, "cvar_handle_free left the handle set");
    }
    return num;
}

/* The wrong uses of the control-variable and enumeration calls. */
static void check_cvar_errors(int num) {
    int index = 0, count = 0;
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    CHECK_T(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_get_index("FTMPI_NO_SUCH_SETTING", &index), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_cvar_get_index(NULL, &index), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_handle_alloc(num, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_cvar_handle_alloc(0, NULL, NULL, &count), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &index), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_write(MPI_T_CVAR_HANDLE_NULL, &index), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_handle_free(NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_enum_get_info(MPI_T_ENUM_NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_enum_get_item(MPI_T_ENUM_NULL, 0, NULL, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);

    /* A name cut to the buffer, terminated; its length says what was stored. */
    char cut[4] = "xxx";
    int cut_len = sizeof cut;
    CHECK_T_OK(MPI_T_cvar_get_info(cvar_index_of("FTMPI_EAGER_LIMIT"), cut, &cut_len, NULL, NULL, NULL, NULL, NULL,
                                   NULL, NULL));
    CHECK(strcmp(cut, "FTM") == 0 && cut_len == 4, "a name cut to 4 bytes gave '%s', length %d", cut, cut_len);
}

/* Writes before MPI_Init: a user setting (through the environment MPI_Init
 * reads), the log level, a launcher's setting (never), invalid values. */
static void write_before_init(void) {
    MPI_T_cvar_handle eager, level, rank;
    int count = 0;
    CHECK_T_OK(MPI_T_cvar_handle_alloc(cvar_index_of("FTMPI_EAGER_LIMIT"), NULL, &eager, &count));
    unsigned long bytes = 12345, back = 0;
    CHECK_T_OK(MPI_T_cvar_write(eager, &bytes));
    CHECK_T_OK(MPI_T_cvar_read(eager, &back));
    CHECK(back == 12345, "FTMPI_EAGER_LIMIT reads %lu after writing 12345", back);
    bytes = 1UL << 41; /* above the table's 1024G */
    CHECK_T(MPI_T_cvar_write(eager, &bytes), MPI_T_ERR_INVALID);
    CHECK_T_OK(MPI_T_cvar_read(eager, &back));
    CHECK(back == 12345, "a refused write changed FTMPI_EAGER_LIMIT to %lu", back);
    CHECK_T_OK(MPI_T_cvar_handle_free(&eager));

    MPI_T_enum e = MPI_T_ENUM_NULL;
    int idx = cvar_index_of("FTMPI_LOG_LEVEL"), items = 0, error_value = -1;
    CHECK_T_OK(MPI_T_cvar_get_info(idx, NULL, NULL, NULL, NULL, &e, NULL, NULL, NULL, NULL));
    CHECK_T_OK(MPI_T_enum_get_info(e, &items, NULL, NULL));
    for (int k = 0; k < items; ++k) {
        char item[32];
        int len = sizeof item, value = 0;
        CHECK_T_OK(MPI_T_enum_get_item(e, k, &value, item, &len));
        if (strcmp(item, "error") == 0) error_value = value;
    }
    CHECK(error_value >= 0, "FTMPI_LOG_LEVEL has no item 'error'");
    CHECK_T_OK(MPI_T_cvar_handle_alloc(idx, NULL, &level, &count));
    int chosen = 0;
    CHECK_T_OK(MPI_T_cvar_write(level, &error_value));
    CHECK_T_OK(MPI_T_cvar_read(level, &chosen));
    CHECK(chosen == error_value, "FTMPI_LOG_LEVEL reads %d after writing %d", chosen, error_value);
    int bad = items;
    CHECK_T(MPI_T_cvar_write(level, &bad), MPI_T_ERR_INVALID);
    CHECK_T_OK(MPI_T_cvar_handle_free(&level));

    int scope = 0;
    CHECK_T_OK(
        MPI_T_cvar_get_info(cvar_index_of("FTMPI_RANK"), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &scope));
    CHECK(scope == MPI_T_SCOPE_READONLY, "FTMPI_RANK (the launcher's) has scope %d", scope);
    CHECK_T_OK(MPI_T_cvar_handle_alloc(cvar_index_of("FTMPI_RANK"), NULL, &rank, &count));
    int zero = 0;
    CHECK_T(MPI_T_cvar_write(rank, &zero), MPI_T_ERR_CVAR_SET_NEVER);
    CHECK_T_OK(MPI_T_cvar_handle_free(&rank));

    /* A string: MPI_CHAR, a handle of room for any value. */
    MPI_T_cvar_handle transports;
    MPI_Datatype type;
    CHECK_T_OK(
        MPI_T_cvar_get_info(cvar_index_of("FTMPI_TRANSPORTS"), NULL, NULL, NULL, &type, NULL, NULL, NULL, NULL, NULL));
    CHECK(type == MPI_CHAR, "FTMPI_TRANSPORTS is not MPI_CHAR");
    CHECK_T_OK(MPI_T_cvar_handle_alloc(cvar_index_of("FTMPI_TRANSPORTS"), NULL, &transports, &count));
    char *text = malloc((size_t)count);
    CHECK_T_OK(MPI_T_cvar_read(transports, text));
    CHECK(strstr(text, "tcp") != NULL || strstr(text, "shm") != NULL, "FTMPI_TRANSPORTS reads '%s'", text);
    free(text);
    CHECK_T_OK(MPI_T_cvar_handle_free(&transports));
}

/* After MPI_Init: the settings are fixed but the log level. */
static void write_after_init(int rank) {
    const char *given = getenv("FTMPI_EAGER_LIMIT");
    CHECK(given != NULL && strcmp(given, "12345") == 0, "MPI_Init read FTMPI_EAGER_LIMIT=%s",
          given ? given : "(unset)");
    MPI_T_cvar_handle eager, level;
    int count = 0;
    unsigned long bytes = 0;
    CHECK_T_OK(MPI_T_cvar_handle_alloc(cvar_index_of("FTMPI_EAGER_LIMIT"), NULL, &eager, &count));
    CHECK_T_OK(MPI_T_cvar_read(eager, &bytes));
    CHECK(bytes == 12345, "rank %d: FTMPI_EAGER_LIMIT reads %lu after MPI_Init", rank, bytes);
    CHECK_T(MPI_T_cvar_write(eager, &bytes), MPI_T_ERR_CVAR_SET_NEVER);
    CHECK_T_OK(MPI_T_cvar_handle_free(&eager));

    CHECK_T_OK(MPI_T_cvar_handle_alloc(cvar_index_of("FTMPI_LOG_LEVEL"), NULL, &level, &count));
    int warn = 1, back = -1; /* the choices are error,warn,info,debug */
    CHECK_T_OK(MPI_T_cvar_write(level, &warn));
    CHECK_T_OK(MPI_T_cvar_read(level, &back));
    CHECK(back == warn, "FTMPI_LOG_LEVEL reads %d after writing %d", back, warn);
    CHECK_T_OK(MPI_T_cvar_handle_free(&level));
}

/* Categories: every control variable in exactly one, the tree under the root. */
static void check_categories(int num_cvars) {
    int num = 0, total_cvars = 0, total_pvars = 0, num_pvars = 0;
    CHECK_T_OK(MPI_T_category_get_num(&num));
    CHECK_T_OK(MPI_T_pvar_get_num(&num_pvars));
    CHECK(num >= 5, "%d categories", num);
    int *seen = calloc((size_t)num_cvars, sizeof *seen);
    for (int c = 0; c < num; ++c) {
        char name[128];
        int name_len = sizeof name, ncvars = -1, npvars = -1, ncats = -1, index = -1, events = -1;
        CHECK_T_OK(MPI_T_category_get_info(c, name, &name_len, NULL, NULL, &ncvars, &npvars, &ncats));
        CHECK_T_OK(MPI_T_category_get_index(name, &index));
        CHECK(index == c, "category %s: index %d, expected %d", name, index, c);
        int *cvars = malloc(sizeof(int) * (size_t)(ncvars + 1));
        CHECK_T_OK(MPI_T_category_get_cvars(c, ncvars, cvars));
        for (int k = 0; k < ncvars; ++k) {
            CHECK(cvars[k] >= 0 && cvars[k] < num_cvars, "category %s: cvar %d", name, cvars[k]);
            ++seen[cvars[k]];
        }
        free(cvars);
        int pvars[8], cats[16];
        CHECK(npvars <= 8 && ncats <= 16, "category %s: %d pvars, %d categories", name, npvars, ncats);
        CHECK_T_OK(MPI_T_category_get_pvars(c, npvars, pvars));
        CHECK_T_OK(MPI_T_category_get_categories(c, ncats, cats));
        for (int k = 0; k < ncats; ++k) CHECK(cats[k] > 0 && cats[k] < num, "category %s: sub %d", name, cats[k]);
        CHECK(c != 0 || ncats == num - 1, "the root holds %d of %d categories", ncats, num - 1);
        CHECK_T_OK(MPI_T_category_get_num_events(c, &events));
        CHECK(events == 0, "category %s: %d events", name, events);
        CHECK_T_OK(MPI_T_category_get_events(c, 0, NULL));
        total_cvars += ncvars;
        total_pvars += npvars;
    }
    CHECK(total_cvars == num_cvars && total_pvars == num_pvars, "the categories hold %d cvars, %d pvars", total_cvars,
          total_pvars);
    for (int i = 0; i < num_cvars; ++i) CHECK(seen[i] == 1, "cvar %d is in %d categories", i, seen[i]);
    free(seen);
    int index = 0, update = -1;
    CHECK_T(MPI_T_category_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_index("no_such_category", &index), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_category_get_cvars(-1, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_pvars(num, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_categories(0, -1, NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_category_get_num_events(num, &index), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_category_get_events(num, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T_OK(MPI_T_category_changed(&update));
    CHECK(update >= 0, "category_changed gave %d", update);
}

/* No events and no sources: zero counts, every index and handle invalid. */
static void check_events(void) {
    int num = -1, index = 0;
    MPI_Count stamp = 0;
    MPI_T_event_registration reg = NULL;
    MPI_Info info = MPI_INFO_NULL;
    char buf[16];
    CHECK_T_OK(MPI_T_event_get_num(&num));
    CHECK(num == 0, "%d events", num);
    CHECK_T_OK(MPI_T_source_get_num(&num));
    CHECK(num == 0, "%d event sources", num);
    CHECK_T(MPI_T_event_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_event_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_event_get_index("ftmpi_event", &index), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_source_get_timestamp(0, &stamp), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_event_handle_set_info(reg, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_handle_get_info(reg, &info), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, NULL),
            MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, &info), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_set_dropped_handler(reg, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_handle_free(reg, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_read(NULL, 0, buf), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_copy(NULL, buf), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_get_timestamp(NULL, &stamp), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_get_source(NULL, &index), MPI_T_ERR_INVALID_HANDLE);
}

int main(int argc, char **argv) {
    int provided = -1;
    /* Not initialized yet. */
    CHECK_T(MPI_T_cvar_get_num(&provided), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_init_thread(MPI_THREAD_MULTIPLE + 1, &provided), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, NULL), MPI_T_ERR_INVALID);
    /* Twice: the nesting count. */
    CHECK_T_OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    CHECK(provided == MPI_THREAD_SINGLE, "MPI_T_init_thread provided %d", provided);
    CHECK_T_OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_T_init_thread provided %d", provided);

    const int num_cvars = check_every_cvar();
    check_cvar_errors(num_cvars);
    check_categories(num_cvars);
    check_events();
    check_pvar_calls();
    write_before_init();

    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    check_rank_ = rank;
    write_after_init(rank);
    check_every_cvar();
    check_queue_pvars(rank, size);
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    CHECK_MPI(MPI_Error_string(MPI_T_ERR_INVALID_INDEX, text, &len));
    CHECK(strstr(text, "MPI_T_ERR_INVALID_INDEX") != NULL, "MPI_Error_string(MPI_T_ERR_INVALID_INDEX): %s", text);
    int cls = -1;
    CHECK_MPI(MPI_Error_class(MPI_T_ERR_CVAR_SET_NEVER, &cls));
    CHECK(cls == MPI_T_ERR_CVAR_SET_NEVER, "MPI_T_ERR_CVAR_SET_NEVER has class %d", cls);
    CHECK_MPI(MPI_Finalize());

    /* Still there after MPI_Finalize, until the last MPI_T_finalize. */
    CHECK(check_every_cvar() == num_cvars, "the number of control variables changed");
    check_pvar_calls();
    CHECK_T_OK(MPI_T_finalize());
    CHECK_T_OK(MPI_T_cvar_get_num(&provided));
    CHECK_T_OK(MPI_T_finalize());
    CHECK_T(MPI_T_cvar_get_num(&provided), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_pvar_session_create(NULL), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    /* And again from the start. */
    CHECK_T_OK(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided));
    CHECK_T_OK(MPI_T_category_get_num(&provided));
    CHECK_T_OK(MPI_T_finalize());
    if (rank == 0) printf("mpit_calls: %d control variables, every MPI_T call checked\n", num_cvars);
    return 0;
}
