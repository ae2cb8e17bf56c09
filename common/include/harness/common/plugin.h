/*
 * harness/common/plugin.h — the HARNESS plugin ABI (pure C).
 *
 * A plugin is a shared object exporting one symbol, HARNESS_PLUGIN_ENTRY, a
 * function returning a const descriptor. The descriptor starts with the ABI
 * major, ABI minor and its own size, so a loader can refuse a plugin built for
 * another ABI before touching anything else. Tables only grow at the end; a
 * loader reads a field only when struct_size says it is there.
 *
 * Three calling conventions (the seed paper's three encodings):
 *   RAW     the function gets the caller's connection and speaks its own
 *           protocol on it (like a SUN RPC skeleton);
 *   PACKED  the function gets the caller's pack buffer and fills a reply buffer
 *           with the helpers below (like PVM's pack/unpack);
 *   AUTO    the function declares a typed signature such as "i64(i64,i64)";
 *           the daemon checks the caller's arguments against it before calling,
 *           and a direct caller gets a native pointer of exactly that type.
 *
 * The pack encoding (also the wire encoding, harness/common/pack.hpp wraps it):
 * a sequence of items, each a one-byte type tag followed by its value in
 * little-endian order; str and bytes carry a u32 length then the bytes.
 * Unpacking checks every bound and every tag, and fails instead of reading
 * past the end.
 *
 * Besides named functions, a plugin may export typed interfaces (ABI 1.2):
 * each is a name, a version and a pointer to an ops table whose layout the
 * interface's own public header defines (a comm driver's table, say). A
 * process that loads the plugin in-process (Hlib's DirectPlugin) asks for an
 * interface by name and minimum version and calls through the table; the
 * daemon only lists them. An ops table should, like every table here, start
 * with its own struct_size so that it too can grow at the end.
 *
 * Nothing in this header throws; C++ plugins must catch everything before
 * returning (harness/common/plugin.hpp does it for them).
 */
#ifndef HARNESS_PLUGIN_H
#define HARNESS_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HARNESS_PLUGIN_ABI_MAJOR 1
/* Minor history: 1.0 the descriptor and host API; 1.1 list_members, root_dir,
 * key_file and call_local in the host API; 1.2 typed interfaces at the end of
 * the descriptor. A host loads every older minor of its major. */
#define HARNESS_PLUGIN_ABI_MINOR 2
#define HARNESS_PLUGIN_ENTRY     "harness_plugin_entry"

/* Status codes shared by plugins, the daemon and Hlib. */
typedef enum harness_status {
    HARNESS_OK = 0,
    HARNESS_ERR_INVALID_ARGUMENT = 1, /* the caller's arguments are wrong */
    HARNESS_ERR_TYPE_MISMATCH = 2,    /* arguments do not match the signature */
    HARNESS_ERR_NOT_FOUND = 3,        /* no such package, component or function */
    HARNESS_ERR_NOT_SUPPORTED = 4,    /* slot or mode not provided */
    HARNESS_ERR_ABI_MISMATCH = 5,     /* plugin built for another ABI */
    HARNESS_ERR_LOAD_FAILED = 6,      /* dlopen, init or manifest failed */
    HARNESS_ERR_ALREADY_IN_VM = 7,    /* a one-per-VM plugin is loaded elsewhere */
    HARNESS_ERR_PLUGIN_FAILED = 8,    /* the plugin function reported an error */
    HARNESS_ERR_PROTOCOL = 9,         /* malformed or unexpected message */
    HARNESS_ERR_AUTH = 10,            /* peer failed to prove VM membership */
    HARNESS_ERR_TOO_LARGE = 11,       /* message over the configured maximum */
    HARNESS_ERR_UNREACHABLE = 12,     /* connection refused, reset or closed */
    HARNESS_ERR_TIMEOUT = 13,         /* no answer before the deadline */
    HARNESS_ERR_MEMBER_FAILED = 14,   /* the daemon was declared failed */
    HARNESS_ERR_CRASHED = 15,         /* a forked handler died */
    HARNESS_ERR_INTERNAL = 16,
    HARNESS_ERR_BUSY = 17, /* resource exhausted, try later */
    HARNESS_STATUS_COUNT_ = 18
} harness_status;

/* Returns a static, readable name for a status (never NULL). */
static inline const char *harness_status_string(int status) {
    static const char *const names[HARNESS_STATUS_COUNT_] = {"ok",
                                                             "invalid argument",
                                                             "argument type mismatch",
                                                             "not found",
                                                             "not supported",
                                                             "plugin ABI mismatch",
                                                             "load failed",
                                                             "one-per-VM plugin already loaded in the VM",
                                                             "plugin function failed",
                                                             "protocol error",
                                                             "authentication failed",
                                                             "message too large",
                                                             "peer unreachable",
                                                             "timed out",
                                                             "daemon declared failed",
                                                             "handler process crashed",
                                                             "internal error",
                                                             "busy"};
    if (status < 0 || status >= HARNESS_STATUS_COUNT_) return "unknown status";
    return names[status];
}

/* ---------------------------------------------------------------- pack buffer */

typedef enum harness_type {
    HARNESS_T_I32 = 1,
    HARNESS_T_I64 = 2,
    HARNESS_T_U64 = 3,
    HARNESS_T_F64 = 4,
    HARNESS_T_STR = 5,
    HARNESS_T_BYTES = 6,
    HARNESS_T_BOOL = 7
} harness_type;

/* A growable output buffer; memory comes from malloc/realloc and the owner
 * frees it with free(). error is set once an allocation failed, after which
 * further packs are ignored. */
typedef struct harness_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    int error;
} harness_buf;

/* A read cursor over a received buffer; error is set on the first bad read and
 * every later read fails. */
typedef struct harness_reader {
    const uint8_t *data;
    size_t len;
    size_t pos;
    int error;
} harness_reader;

static inline int harness_buf_reserve(harness_buf *b, size_t extra) {
    if (b->error) return -1;
    if (extra > SIZE_MAX - b->len) {
        b->error = 1;
        return -1;
    }
    if (b->len + extra <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra) cap = cap > SIZE_MAX / 2 ? b->len + extra : cap * 2;
    uint8_t *p = (uint8_t *)realloc(b->data, cap);
    if (!p) {
        b->error = 1;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

static inline void harness_buf_append(harness_buf *b, const void *src, size_t n) {
    if (n == 0 || harness_buf_reserve(b, n) != 0) return;
    memcpy(b->data + b->len, src, n);
    b->len += n;
}

static inline void harness_buf_free(harness_buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->error = 0;
}

static inline void harness_put_le(uint8_t *dst, uint64_t v, size_t n) {
    for (size_t i = 0; i < n; ++i) dst[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t harness_get_le(const uint8_t *src, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= (uint64_t)src[i] << (8 * i);
    return v;
}

static inline void harness_pack_tagged(harness_buf *b, uint8_t tag, uint64_t v, size_t n) {
    if (harness_buf_reserve(b, 1 + n) != 0) return;
    b->data[b->len] = tag;
    harness_put_le(b->data + b->len + 1, v, n);
    b->len += 1 + n;
}

static inline void harness_pack_i32(harness_buf *b, int32_t v) {
    harness_pack_tagged(b, HARNESS_T_I32, (uint32_t)v, 4);
}
static inline void harness_pack_i64(harness_buf *b, int64_t v) {
    harness_pack_tagged(b, HARNESS_T_I64, (uint64_t)v, 8);
}
static inline void harness_pack_u64(harness_buf *b, uint64_t v) {
    harness_pack_tagged(b, HARNESS_T_U64, v, 8);
}
static inline void harness_pack_bool(harness_buf *b, int v) {
    harness_pack_tagged(b, HARNESS_T_BOOL, v ? 1u : 0u, 1);
}
static inline void harness_pack_f64(harness_buf *b, double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    harness_pack_tagged(b, HARNESS_T_F64, bits, 8);
}

static inline void harness_pack_blob(harness_buf *b, uint8_t tag, const void *p, size_t n) {
    if (n > UINT32_MAX) {
        b->error = 1;
        return;
    }
    harness_pack_tagged(b, tag, (uint64_t)n, 4);
    harness_buf_append(b, p, n);
}
static inline void harness_pack_bytes(harness_buf *b, const void *p, size_t n) {
    harness_pack_blob(b, HARNESS_T_BYTES, p, n);
}
static inline void harness_pack_strn(harness_buf *b, const char *s, size_t n) {
    harness_pack_blob(b, HARNESS_T_STR, s, n);
}
static inline void harness_pack_str(harness_buf *b, const char *s) {
    harness_pack_strn(b, s, strlen(s));
}

static inline harness_reader harness_reader_make(const void *data, size_t len) {
    harness_reader r;
    r.data = (const uint8_t *)data;
    r.len = len;
    r.pos = 0;
    r.error = 0;
    return r;
}

static inline int harness_reader_done(const harness_reader *r) {
    return !r->error && r->pos == r->len;
}

/* Type tag of the next item, or 0 at the end or after an error. */
static inline int harness_peek_type(const harness_reader *r) {
    if (r->error || r->pos >= r->len) return 0;
    return r->data[r->pos];
}

static inline int harness_unpack_tagged(harness_reader *r, uint8_t tag, uint64_t *v, size_t n) {
    if (r->error || r->len - r->pos < 1 + n || r->data[r->pos] != tag) {
        r->error = 1;
        return -1;
    }
    *v = harness_get_le(r->data + r->pos + 1, n);
    r->pos += 1 + n;
    return 0;
}

static inline int harness_unpack_i32(harness_reader *r, int32_t *out) {
    uint64_t v;
    if (harness_unpack_tagged(r, HARNESS_T_I32, &v, 4)) return -1;
    *out = (int32_t)(uint32_t)v;
    return 0;
}
static inline int harness_unpack_i64(harness_reader *r, int64_t *out) {
    uint64_t v;
    if (harness_unpack_tagged(r, HARNESS_T_I64, &v, 8)) return -1;
    *out = (int64_t)v;
    return 0;
}
static inline int harness_unpack_u64(harness_reader *r, uint64_t *out) {
    return harness_unpack_tagged(r, HARNESS_T_U64, out, 8);
}
static inline int harness_unpack_bool(harness_reader *r, int *out) {
    uint64_t v;
    if (harness_unpack_tagged(r, HARNESS_T_BOOL, &v, 1)) return -1;
    if (v > 1) {
        r->error = 1;
        return -1;
    }
    *out = (int)v;
    return 0;
}
static inline int harness_unpack_f64(harness_reader *r, double *out) {
    uint64_t v;
    if (harness_unpack_tagged(r, HARNESS_T_F64, &v, 8)) return -1;
    memcpy(out, &v, sizeof *out);
    return 0;
}
/* Points *p into the reader's buffer (no copy); valid while that buffer is. */
static inline int harness_unpack_blob(harness_reader *r, uint8_t tag, const void **p, size_t *n) {
    uint64_t len;
    if (harness_unpack_tagged(r, tag, &len, 4)) return -1;
    if (len > r->len - r->pos) {
        r->error = 1;
        return -1;
    }
    *p = r->data + r->pos;
    *n = (size_t)len;
    r->pos += (size_t)len;
    return 0;
}
static inline int harness_unpack_bytes(harness_reader *r, const void **p, size_t *n) {
    return harness_unpack_blob(r, HARNESS_T_BYTES, p, n);
}
static inline int harness_unpack_str(harness_reader *r, const char **s, size_t *n) {
    const void *p;
    if (harness_unpack_blob(r, HARNESS_T_STR, &p, n)) return -1;
    *s = (const char *)p;
    return 0;
}

/* ------------------------------------------------------------------ host API */

typedef enum harness_level { HARNESS_LEVEL_DAEMON = 0, HARNESS_LEVEL_APPLICATION = 1 } harness_level;
typedef enum harness_instance_policy { HARNESS_PER_DAEMON = 0, HARNESS_ONE_PER_VM = 1 } harness_instance_policy;
typedef enum harness_convention {
    HARNESS_CALL_RAW = 0,
    HARNESS_CALL_PACKED = 1,
    HARNESS_CALL_AUTO = 2
} harness_convention;

/* Where an indirect call runs (the seed paper's four indirect methods). */
typedef enum harness_mode {
    HARNESS_MODE_DEFAULT = 0, /* the function's own default_mode */
    HARNESS_MODE_INLINE = 1,  /* on the daemon's I/O thread */
    HARNESS_MODE_THREAD = 2,  /* a new thread per call */
    HARNESS_MODE_FORK = 3,    /* a forked process per call */
    HARNESS_MODE_SERVICE = 4  /* a forked long-lived process per function */
} harness_mode;

/* LEFT: the member said it was stopping (a clean stop) and is gone at once,
 * without waiting for the heartbeat timeout; for everything but the reason it
 * is a failed member. */
typedef enum harness_member_state {
    HARNESS_MEMBER_ALIVE = 0,
    HARNESS_MEMBER_FAILED = 1,
    HARNESS_MEMBER_LEFT = 2
} harness_member_state;

typedef void (*harness_member_hook)(void *user, const char *member_id, int state);

/* One member as the host sees it (list_members). */
typedef struct harness_member_info {
    uint32_t struct_size;
    const char *id;
    const char *address; /* "host:port": the daemon's TCP and UDP endpoint */
    int state;           /* harness_member_state */
    int is_self;
} harness_member_info;

typedef void (*harness_member_visitor)(void *user, const harness_member_info *member);

/* What the host (hcored, or Hlib for application-level plugins) offers a
 * plugin. Read a field only when struct_size covers it. */
typedef struct harness_host_api {
    uint32_t struct_size;
    void *host;
    /* Load another component into the same host: the load dependency tree.
     * Idempotent. On failure writes a message into err (if errlen > 0). */
    int (*load)(void *host, const char *package, const char *component, char *err, size_t errlen);
    /* level: 0 debug, 1 info, 2 warning, 3 error. */
    void (*log)(void *host, int level, const char *message);
    /* Subscribe to VM membership changes (a daemon joined, or was declared
     * failed). Only a daemon host offers it; Hlib hosts return NOT_SUPPORTED. */
    int (*subscribe_members)(void *host, harness_member_hook hook, void *user);
    /* The host's member id (daemon) or "" (application). */
    const char *(*member_id)(void *host);

    /* ---- ABI 1.1: what the VM services need from their daemon. ---- */

    /* Visit every member the host knows (itself included), in member-id
     * order. Daemon hosts only; Hlib hosts return NOT_SUPPORTED. The strings
     * are valid during the visit only. */
    int (*list_members)(void *host, harness_member_visitor visit, void *user);
    /* The daemon's root directory (plugins keep their state under
     * <root>/var/<package>/), or "" for an application host. */
    const char *(*root_dir)(void *host);
    /* Path of the VM key file, so a plugin that opens channels of its own
     * (the DRD's consensus traffic) authenticates them with the VM key. */
    const char *(*key_file)(void *host);
    /* Call a PACKED function of a component loaded in this same host, on the
     * calling thread, without a socket: args is a pack buffer, the reply is
     * appended to out. Loads the component first if needed. Returns the
     * function's status; on failure writes a message into err. */
    int (*call_local)(void *host, const char *package, const char *component, const char *function, const void *args,
                      size_t args_len, harness_buf *out, char *err, size_t errlen);
} harness_host_api;

/* Nonzero when a table that starts with its struct_size (table points to it,
 * may be NULL) is large enough to hold slot and the slot is set: the check to
 * make before calling any slot a newer minor added. type is the table's type
 * as this header defines it. */
#define HARNESS_TABLE_HAS(type, table, slot)                                                                           \
    ((table) != NULL && (table)->struct_size >= offsetof(type, slot) + sizeof((table)->slot) && (table)->slot != NULL)

/* HARNESS_TABLE_HAS for the host API, the table every plugin reads:
 *     if (HARNESS_HOST_HAS(host, list_members)) host->list_members(host->host, visit, user); */
#define HARNESS_HOST_HAS(host, slot) HARNESS_TABLE_HAS(harness_host_api, host, slot)

/* Per-call context. */
typedef struct harness_call_ctx {
    uint32_t struct_size;
    void *plugin_state; /* what init stored */
    const harness_host_api *host;
    harness_buf *error; /* append a readable message on failure */
} harness_call_ctx;

/* A typed value for AUTO calls. Strings and bytes point into the request
 * (arguments) or into memory the plugin allocated with malloc (results). */
typedef struct harness_value {
    uint32_t type; /* harness_type */
    union {
        int32_t i32;
        int64_t i64;
        uint64_t u64;
        double f64;
        int boolean;
        struct {
            const void *data;
            size_t len;
            int owned;
        } blob;
    } v;
} harness_value;

/* RAW: fd is the caller's connected socket in blocking mode. The function
 * reads its request and writes its reply itself, then returns a status. */
typedef int (*harness_raw_fn)(harness_call_ctx *ctx, int fd);
/* PACKED: args is the caller's pack buffer; append the reply to out. */
typedef int (*harness_packed_fn)(harness_call_ctx *ctx, harness_reader *args, harness_buf *out);
/* AUTO: args are already checked against the signature; set *result (owned
 * blobs are freed by the host with free()). */
typedef int (*harness_auto_fn)(harness_call_ctx *ctx, const harness_value *args, size_t nargs, harness_value *result);

typedef struct harness_function {
    uint32_t struct_size;
    const char *name;
    uint32_t convention;   /* harness_convention */
    uint32_t default_mode; /* harness_mode used when the caller asks for DEFAULT */
    const char *signature; /* AUTO: "i64(i64,i64)", "str(str)", "void()" */
    harness_raw_fn raw;
    harness_packed_fn packed;
    harness_auto_fn automatic;
    /* AUTO, optional: a plain C function of exactly the signature, handed out
     * for direct invocation in the caller's process. */
    void (*native)(void);
} harness_function;

/* ABI 1.2: one typed interface a plugin exports. name is a dotted word such
 * as "ftmpi.transport"; version is the interface's own version (not the
 * plugin's), raised whenever the ops table's meaning changes; ops points to a
 * const table that lives as long as the plugin is loaded. A plugin may export
 * several versions of one interface as separate entries (never the same name
 * and version twice). The loader refuses the plugin before calling anything
 * when an entry is smaller than this struct or lacks its name or ops. */
typedef struct harness_interface {
    uint32_t struct_size;
    const char *name;
    uint32_t version;
    const void *ops;
} harness_interface;

typedef struct harness_plugin_descriptor {
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t struct_size;
    const char *package;
    const char *component;
    const char *version;
    uint32_t level;           /* harness_level */
    uint32_t instance_policy; /* harness_instance_policy */
    /* May be NULL. Return HARNESS_OK or a status with a message in err. */
    int (*init)(const harness_host_api *host, void **state, char *err, size_t errlen);
    void (*fini)(void *state);
    size_t function_count;
    const harness_function *functions;

    /* ---- ABI 1.2: typed interfaces (read only when struct_size covers
     * them; a 1.0/1.1 plugin's descriptor ends before them and exports none).
     * interfaces may be NULL only when interface_count is 0. The manifest
     * lists the same (name, version) pairs under "interfaces". */
    size_t interface_count;
    const harness_interface *interfaces;
} harness_plugin_descriptor;

typedef const harness_plugin_descriptor *(*harness_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* HARNESS_PLUGIN_H */
