/* harness/common/plugin.h is pure C: this file includes nothing else and is built as
 * C11 with -Wpedantic -Werror. It also runs the C pack helpers once. */
#include <harness/common/plugin.h>

static int check(int ok, const char *what, int *failures) {
    if (!ok) {
        ++*failures;
        (void)what; /* no stdio: plugin.h must be enough */
    }
    return ok;
}

static const harness_plugin_descriptor *entry(void) {
    return NULL;
}

static const char *no_id(void *host) {
    (void)host;
    return "";
}

int main(void) {
    int failures = 0;
    harness_buf b = {NULL, 0, 0, 0};
    harness_reader r;
    int32_t i32 = 0;
    int64_t i64 = 0;
    uint64_t u64 = 0;
    double f64 = 0;
    int flag = 0;
    const char *s = NULL;
    const void *p = NULL;
    size_t n = 0;
    harness_plugin_entry_fn fn = entry;

    harness_pack_i32(&b, -7);
    harness_pack_i64(&b, INT64_MIN);
    harness_pack_u64(&b, UINT64_MAX);
    harness_pack_f64(&b, 2.5);
    harness_pack_bool(&b, 1);
    harness_pack_str(&b, "hi");
    harness_pack_bytes(&b, "\0\1", 2);
    check(b.error == 0, "pack", &failures);

    r = harness_reader_make(b.data, b.len);
    check(harness_peek_type(&r) == HARNESS_T_I32, "peek", &failures);
    check(harness_unpack_i32(&r, &i32) == 0 && i32 == -7, "i32", &failures);
    check(harness_unpack_i64(&r, &i64) == 0 && i64 == INT64_MIN, "i64", &failures);
    check(harness_unpack_u64(&r, &u64) == 0 && u64 == UINT64_MAX, "u64", &failures);
    check(harness_unpack_f64(&r, &f64) == 0 && f64 == 2.5, "f64", &failures);
    check(harness_unpack_bool(&r, &flag) == 0 && flag == 1, "bool", &failures);
    check(harness_unpack_str(&r, &s, &n) == 0 && n == 2 && memcmp(s, "hi", 2) == 0, "str", &failures);
    check(harness_unpack_bytes(&r, &p, &n) == 0 && n == 2, "bytes", &failures);
    check(harness_reader_done(&r), "done", &failures);
    check(harness_unpack_i32(&r, &i32) != 0 && r.error, "read past end", &failures);

    check(strcmp(harness_status_string(HARNESS_OK), "ok") == 0, "status", &failures);
    check(strcmp(harness_status_string(-1), "unknown status") == 0, "status -1", &failures);
    check(fn() == NULL, "entry type", &failures);

    /* HARNESS_HOST_HAS: NULL host, a 1.0-sized table, an unset slot. */
    {
        harness_host_api host;
        const harness_host_api *none = NULL, *h = &host;
        memset(&host, 0, sizeof host);
        host.struct_size = sizeof host;
        host.member_id = no_id;
        check(!HARNESS_HOST_HAS(none, member_id), "host NULL", &failures);
        check(HARNESS_HOST_HAS(h, member_id), "host has member_id", &failures);
        check(!HARNESS_HOST_HAS(h, list_members), "slot unset", &failures);
        host.list_members = NULL;
        host.struct_size = (uint32_t)offsetof(harness_host_api, list_members);
        check(HARNESS_HOST_HAS(h, member_id), "1.0 table has member_id", &failures);
        check(!HARNESS_HOST_HAS(h, root_dir), "1.0 table lacks root_dir", &failures);
    }
    harness_buf_free(&b);
    return failures == 0 ? 0 : 1;
}
