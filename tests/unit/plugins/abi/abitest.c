/* The ABI test plugins (package abitest), one source built once per variant
 * (-DVARIANT_…, -DCOMPONENT="…"):
 *   good         application level, ABI 1.2: interfaces abitest.counter v1 and
 *                v2; functions for the in-process host (sum, echo, fail,
 *                paths, members, relay); init loads abitest/old through the
 *                host, as a dependency
 *   old          built with the ABI 1.1 descriptor layout (no interface
 *                fields); the bytes after its descriptor are poison that a
 *                loader reading past struct_size would take for a table
 *   failinit     application level; init refuses with a message
 *   null_table, small_entry, null_name, null_ops, duplicate, unlisted
 *                malformed interface tables (or one the manifest does not
 *                list): the loader must refuse them before calling anything,
 *                so their init aborts the process
 *   unlisted_function
 *                the good tables, but the manifest leaves out "relay": refused
 *                the same way, naming the function */
#include "abitest_counter.h"

#include <harness/common/plugin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Not every variant uses every table. */
#define MAYBE_UNUSED __attribute__((unused))

static int64_t count_by_one(int64_t v) {
    return v + 1;
}
static int64_t count_by_two(int64_t v) {
    return v + 2;
}
static MAYBE_UNUSED const abitest_counter_ops counter_v1 = {sizeof(abitest_counter_ops), count_by_one};
static MAYBE_UNUSED const abitest_counter_ops counter_v2 = {sizeof(abitest_counter_ops), count_by_two};

static int64_t add_native(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int add_auto(harness_call_ctx *ctx, const harness_value *args, size_t nargs, harness_value *result) {
    (void)ctx;
    if (nargs != 2) return HARNESS_ERR_TYPE_MISMATCH;
    result->type = HARNESS_T_I64;
    result->v.i64 = add_native(args[0].v.i64, args[1].v.i64);
    return HARNESS_OK;
}

static void say(harness_call_ctx *ctx, const char *message) {
    harness_buf_append(ctx->error, message, strlen(message));
}

/* PACKED: any number of i64 → i64 sum, i64 count. */
static int sum_packed(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    int64_t total = 0, count = 0, v = 0;
    while (harness_peek_type(args) != 0) {
        if (harness_unpack_i64(args, &v) != 0) {
            say(ctx, "sum takes i64 items only");
            return HARNESS_ERR_TYPE_MISMATCH;
        }
        total += v;
        ++count;
    }
    harness_pack_i64(out, total);
    harness_pack_i64(out, count);
    return HARNESS_OK;
}

/* AUTO str(str) without a native pointer: callers use call_packed. */
static int echo_auto(harness_call_ctx *ctx, const harness_value *args, size_t nargs, harness_value *result) {
    (void)ctx;
    if (nargs != 1) return HARNESS_ERR_TYPE_MISMATCH;
    void *copy = malloc(args[0].v.blob.len + 1);
    if (!copy) return HARNESS_ERR_INTERNAL;
    memcpy(copy, args[0].v.blob.data, args[0].v.blob.len);
    result->type = HARNESS_T_STR;
    result->v.blob.data = copy;
    result->v.blob.len = args[0].v.blob.len;
    result->v.blob.owned = 1;
    return HARNESS_OK;
}

/* PACKED: fails with the caller's string as its message. */
static int fail_packed(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    (void)out;
    const char *why = NULL;
    size_t n = 0;
    if (harness_unpack_str(args, &why, &n) != 0) return HARNESS_ERR_TYPE_MISMATCH;
    harness_buf_append(ctx->error, why, n);
    return HARNESS_ERR_PLUGIN_FAILED;
}

/* PACKED: the host's member id, root and key file (all "" in a process). */
static int paths_packed(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    (void)args;
    const harness_host_api *h = ctx->host;
    harness_pack_str(out, h->member_id(h->host));
    harness_pack_str(out, h->root_dir(h->host));
    harness_pack_str(out, h->key_file(h->host));
    return HARNESS_OK;
}

static void ignore_member(void *user, const harness_member_info *member) {
    (void)user;
    (void)member;
}

/* PACKED: the host's list_members status (NOT_SUPPORTED in a process). */
static int members_packed(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    (void)args;
    (void)out;
    int rc = ctx->host->list_members(ctx->host->host, ignore_member, NULL);
    if (rc != HARNESS_OK) say(ctx, "list_members refused");
    return rc;
}

/* PACKED str pkg, str comp, str fn, bytes args: the host's call_local. */
static int relay_packed(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    const char *pkg, *comp, *fn;
    const void *inner;
    size_t pn, cn, fnn, in;
    if (harness_unpack_str(args, &pkg, &pn) || harness_unpack_str(args, &comp, &cn) ||
        harness_unpack_str(args, &fn, &fnn) || harness_unpack_bytes(args, &inner, &in))
        return HARNESS_ERR_TYPE_MISMATCH;
    char p[64], c[64], f[64], err[256] = "";
    snprintf(p, sizeof p, "%.*s", (int)pn, pkg);
    snprintf(c, sizeof c, "%.*s", (int)cn, comp);
    snprintf(f, sizeof f, "%.*s", (int)fnn, fn);
    int rc = ctx->host->call_local(ctx->host->host, p, c, f, inner, in, out, err, sizeof err);
    if (rc != HARNESS_OK) say(ctx, err);
    return rc;
}

static const harness_function functions[] = {
    {sizeof(harness_function), "add", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "i64(i64,i64)", NULL, NULL, add_auto,
     (void (*)(void))add_native},
    {sizeof(harness_function), "sum", HARNESS_CALL_PACKED, HARNESS_MODE_INLINE, NULL, NULL, sum_packed, NULL, NULL},
    {sizeof(harness_function), "echo", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "str(str)", NULL, NULL, echo_auto, NULL},
    {sizeof(harness_function), "fail", HARNESS_CALL_PACKED, HARNESS_MODE_INLINE, NULL, NULL, fail_packed, NULL, NULL},
    {sizeof(harness_function), "paths", HARNESS_CALL_PACKED, HARNESS_MODE_INLINE, NULL, NULL, paths_packed, NULL, NULL},
    {sizeof(harness_function), "members", HARNESS_CALL_PACKED, HARNESS_MODE_INLINE, NULL, NULL, members_packed, NULL,
     NULL},
    {sizeof(harness_function), "relay", HARNESS_CALL_PACKED, HARNESS_MODE_INLINE, NULL, NULL, relay_packed, NULL, NULL},
};
#define FUNCTION_COUNT (sizeof functions / sizeof functions[0])

#if defined(VARIANT_GOOD)
static MAYBE_UNUSED int init(const harness_host_api *host, void **state, char *err, size_t errlen) {
    *state = NULL;
    return host->load(host->host, "abitest", "old", err, errlen);
}
#elif defined(VARIANT_FAILINIT)
static MAYBE_UNUSED int init(const harness_host_api *host, void **state, char *err, size_t errlen) {
    (void)host;
    (void)state;
    snprintf(err, errlen, "abitest/failinit refuses to start");
    return HARNESS_ERR_LOAD_FAILED;
}
#else
/* The malformed variants must be refused before anything runs. */
static MAYBE_UNUSED int init(const harness_host_api *host, void **state, char *err, size_t errlen) {
    (void)host;
    (void)state;
    (void)err;
    (void)errlen;
    fprintf(stderr, "abitest/%s: init ran although the descriptor is malformed\n", COMPONENT);
    abort();
}
#endif

#if defined(VARIANT_OLD)
/* The ABI 1.1 descriptor, as a plugin compiled against that header has it:
 * plugin.h's first fields copied on purpose, frozen while plugin.h grows. */
typedef struct descriptor_1_1 {
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t struct_size;
    const char *package;
    const char *component;
    const char *version;
    uint32_t level;
    uint32_t instance_policy;
    int (*init)(const harness_host_api *host, void **state, char *err, size_t errlen);
    void (*fini)(void *state);
    size_t function_count;
    const harness_function *functions;
} descriptor_1_1;

static int old_init(const harness_host_api *host, void **state, char *err, size_t errlen) {
    (void)host;
    (void)err;
    (void)errlen;
    *state = NULL;
    return HARNESS_OK;
}

/* What follows the descriptor in memory: were it read as interface_count
 * and interfaces, the loader would refuse or crash. */
static const struct {
    descriptor_1_1 d;
    size_t poison_count;
    const void *poison_table;
} image = {
    {HARNESS_PLUGIN_ABI_MAJOR, 1, sizeof(descriptor_1_1), "abitest", "old", "1.1.0", HARNESS_LEVEL_APPLICATION,
     HARNESS_PER_DAEMON, old_init, NULL, FUNCTION_COUNT, functions},
    7,
    (const void *)16,
};

__attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void) {
    return (const harness_plugin_descriptor *)(const void *)&image.d;
}
#else

#if defined(VARIANT_SMALL_ENTRY)
/* An entry as a plugin built for a smaller, made-up interface struct. */
static const harness_interface interfaces[] = {{sizeof(uint32_t), "abitest.counter", 1, &counter_v1}};
#elif defined(VARIANT_NULL_NAME)
static const harness_interface interfaces[] = {{sizeof(harness_interface), "abitest.counter", 1, &counter_v1},
                                               {sizeof(harness_interface), NULL, 2, &counter_v2}};
#elif defined(VARIANT_NULL_OPS)
static const harness_interface interfaces[] = {{sizeof(harness_interface), "abitest.counter", 1, NULL}};
#elif defined(VARIANT_DUPLICATE)
static const harness_interface interfaces[] = {{sizeof(harness_interface), "abitest.counter", 1, &counter_v1},
                                               {sizeof(harness_interface), "abitest.counter", 1, &counter_v2}};
#else /* good, failinit, unlisted, unlisted_function, null_table (whose table pointer is NULL) */
static const harness_interface interfaces[] = {{sizeof(harness_interface), "abitest.counter", 1, &counter_v1},
                                               {sizeof(harness_interface), "abitest.counter", 2, &counter_v2}};
#endif

static const harness_plugin_descriptor descriptor = {
    HARNESS_PLUGIN_ABI_MAJOR,
    HARNESS_PLUGIN_ABI_MINOR,
    sizeof(harness_plugin_descriptor),
    "abitest",
    COMPONENT,
    "1.2.0",
    HARNESS_LEVEL_APPLICATION,
    HARNESS_PER_DAEMON,
    init,
    NULL,
    FUNCTION_COUNT,
    functions,
    sizeof interfaces / sizeof interfaces[0],
#if defined(VARIANT_NULL_TABLE)
    NULL,
#else
    interfaces,
#endif
};

__attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void) {
    return &descriptor;
}
#endif
