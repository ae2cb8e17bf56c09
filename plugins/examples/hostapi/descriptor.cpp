// examples/hostapi — exercises the host API of ABI 1.1 from inside a plugin,
// for the daemon and Hlib tests: members lists what list_members visits,
// paths returns member_id/root_dir/key_file, relay forwards a PACKED call
// to another component of the same host through call_local (the way the VM
// services call each other), and member_events returns what the membership
// hook heard since load (joined/failed, in order). Every slot is checked against struct_size first,
// so the component also runs on a host that predates 1.1.
#include <harness/common/plugin.hpp>

#include <cstddef>
#include <cstdio>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace {

struct State {
    const harness_host_api *host;  // outlives every call
    std::mutex mutex;
    std::vector<std::pair<std::string, int>> events;  // (member id, harness_member_state)
};

int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept {
    auto *s = new (std::nothrow) State{host, {}, {}};
    if (!s) return HARNESS_ERR_INTERNAL;
    *state = s;
    // An application host has no membership: that is fine, the events stay empty.
    if (host->subscribe_members) {
        int rc = host->subscribe_members(
            host->host,
            [](void *user, const char *member_id, int member_state) {
                auto *st = static_cast<State *>(user);
                try {
                    std::lock_guard lock(st->mutex);
                    st->events.emplace_back(member_id, member_state);
                } catch (...) {}
            },
            s);
        if (rc != HARNESS_OK && rc != HARNESS_ERR_NOT_SUPPORTED) {
            if (errlen > 0) std::snprintf(err, errlen, "subscribe_members: %s", harness_status_string(rc));
            delete s;
            return rc;
        }
    }
    return HARNESS_OK;
}

void fini(void *state) noexcept {
    delete static_cast<State *>(state);
}

const harness_host_api *host_of(harness_call_ctx *ctx) {
    return static_cast<State *>(ctx->plugin_state)->host;
}

int no_arguments(harness_call_ctx *ctx, harness_reader *args, const char *name) {
    if (harness_reader_done(args)) return HARNESS_OK;
    harness::set_call_error(ctx, std::string(name) + " takes no arguments");
    return HARNESS_ERR_INVALID_ARGUMENT;
}

// members() → i64 n, n × (str id, str address, i32 state, bool is_self)
int members(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept {
    if (int rc = no_arguments(ctx, args, "members")) return rc;
    const harness_host_api *host = host_of(ctx);
    if (!HARNESS_HOST_HAS(host, list_members)) {
        harness::set_call_error(ctx, "the host has no list_members");
        return HARNESS_ERR_NOT_SUPPORTED;
    }
    harness_buf items{};
    struct Visit {
        harness_buf *items;
        std::int64_t n;
    } visit{&items, 0};
    int rc = host->list_members(
        host->host,
        [](void *user, const harness_member_info *m) {
            auto *v = static_cast<Visit *>(user);
            harness_pack_str(v->items, m->id);
            harness_pack_str(v->items, m->address);
            harness_pack_i32(v->items, m->state);
            harness_pack_bool(v->items, m->is_self);
            ++v->n;
        },
        &visit);
    if (rc == HARNESS_OK) {
        harness_pack_i64(out, visit.n);
        harness_buf_append(out, items.data, items.len);
        if (items.error) out->error = 1;
    } else {
        harness::set_call_error(ctx, std::string("list_members: ") + harness_status_string(rc));
    }
    harness_buf_free(&items);
    return rc;
}

// paths() → str member_id, str root_dir, str key_file
int paths(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept {
    if (int rc = no_arguments(ctx, args, "paths")) return rc;
    const harness_host_api *host = host_of(ctx);
    if (!HARNESS_HOST_HAS(host, root_dir) || !HARNESS_HOST_HAS(host, key_file)) {
        harness::set_call_error(ctx, "the host has no root_dir or key_file");
        return HARNESS_ERR_NOT_SUPPORTED;
    }
    harness_pack_str(out, host->member_id(host->host));
    harness_pack_str(out, host->root_dir(host->host));
    harness_pack_str(out, host->key_file(host->host));
    return HARNESS_OK;
}

// relay(str package, str component, str function, bytes args) → bytes reply
int relay(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept {
    const char *p, *c, *f;
    size_t pn, cn, fn, an;
    const void *a;
    if (harness_unpack_str(args, &p, &pn) || harness_unpack_str(args, &c, &cn) || harness_unpack_str(args, &f, &fn) ||
        harness_unpack_bytes(args, &a, &an) || !harness_reader_done(args)) {
        harness::set_call_error(ctx, "relay takes str package, str component, str function, bytes args");
        return HARNESS_ERR_INVALID_ARGUMENT;
    }
    const harness_host_api *host = host_of(ctx);
    if (!HARNESS_HOST_HAS(host, call_local)) {
        harness::set_call_error(ctx, "the host has no call_local");
        return HARNESS_ERR_NOT_SUPPORTED;
    }
    std::string package(p, pn), component(c, cn), function(f, fn);
    harness_buf reply{};
    char err[512] = {};
    int rc = host->call_local(host->host, package.c_str(), component.c_str(), function.c_str(), a, an, &reply, err,
                              sizeof err);
    if (rc == HARNESS_OK) {
        harness_pack_bytes(out, reply.data, reply.len);
    } else {
        harness::set_call_error(ctx, err[0] ? err : harness_status_string(rc));
    }
    harness_buf_free(&reply);
    return rc;
}

// member_events() → i64 n, n × (str member_id, i32 state)
int member_events(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept {
    if (int rc = no_arguments(ctx, args, "member_events")) return rc;
    auto *st = static_cast<State *>(ctx->plugin_state);
    std::lock_guard lock(st->mutex);
    harness_pack_i64(out, static_cast<std::int64_t>(st->events.size()));
    for (const auto &[id, state] : st->events) {
        harness_pack_str(out, id.c_str());
        harness_pack_i32(out, state);
    }
    return HARNESS_OK;
}

const harness_function kFunctions[] = {
    harness::packed_function("members", &members),
    harness::packed_function("paths", &paths),
    harness::packed_function("relay", &relay, HARNESS_MODE_THREAD),
    harness::packed_function("member_events", &member_events),
};

const harness_plugin_descriptor kDescriptor = harness::plugin_descriptor(
    {.package = "examples", .component = "hostapi", .version = "1.0.0", .init = &init, .fini = &fini}, kFunctions);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
