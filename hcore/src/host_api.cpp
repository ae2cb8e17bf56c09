#include "host_api.hpp"

#include "daemon.hpp"

#include <cstring>

namespace harness::hcore {

namespace {

Daemon &daemon_of(void *host) {
    return *static_cast<Daemon *>(host);
}

void copy_message(const std::string &message, char *err, std::size_t errlen) {
    if (!err || errlen == 0) return;
    std::size_t n = std::min(message.size(), errlen - 1);
    std::memcpy(err, message.data(), n);
    err[n] = '\0';
}

int host_load(void *host, const char *package, const char *component, char *err, std::size_t errlen) noexcept {
    try {
        if (!package || !component) return HARNESS_ERR_INVALID_ARGUMENT;
        auto r = daemon_of(host).load_component(ComponentName{package, component});
        if (!r) {
            copy_message(r.error().message, err, errlen);
            return r.error().status;
        }
        return HARNESS_OK;
    } catch (const std::exception &e) {
        copy_message(e.what(), err, errlen);
    } catch (...) {
        copy_message("unknown exception", err, errlen);
    }
    return HARNESS_ERR_INTERNAL;
}

void host_log(void *host, int level, const char *message) noexcept {
    try {
        if (message) daemon_of(host).log().log(static_cast<LogLevel>(std::clamp(level, 0, 3)), message);
    } catch (...) {}
}

int host_subscribe(void *host, harness_member_hook hook, void *user) noexcept {
    try {
        if (!hook) return HARNESS_ERR_INVALID_ARGUMENT;
        Daemon &d = daemon_of(host);
        d.subscribe_members([hook, user, &d](const std::string &id, bool alive) {
            hook(user, id.c_str(),
                 alive                   ? HARNESS_MEMBER_ALIVE
                     : d.member_left(id) ? HARNESS_MEMBER_LEFT
                                         : HARNESS_MEMBER_FAILED);
        });
        return HARNESS_OK;
    } catch (...) {
        return HARNESS_ERR_INTERNAL;
    }
}

const char *host_member_id(void *host) noexcept {
    return daemon_of(host).id().c_str();
}

int host_list_members(void *host, harness_member_visitor visit, void *user) noexcept {
    try {
        if (!visit) return HARNESS_ERR_INVALID_ARGUMENT;
        Daemon &d = daemon_of(host);
        // A snapshot, so the visitor may call back into the host (even
        // list_members again) without holding the membership lock.
        for (const auto &m : d.members()) {
            std::string address = m.tcp.to_string();
            harness_member_info info{sizeof(harness_member_info), m.id.c_str(), address.c_str(),
                                     m.alive      ? HARNESS_MEMBER_ALIVE
                                         : m.left ? HARNESS_MEMBER_LEFT
                                                  : HARNESS_MEMBER_FAILED,
                                     m.id == d.id() ? 1 : 0};
            visit(user, &info);
        }
        return HARNESS_OK;
    } catch (...) {
        return HARNESS_ERR_INTERNAL;
    }
}

const char *host_root_dir(void *host) noexcept {
    return daemon_of(host).root_text().c_str();
}
const char *host_key_file(void *host) noexcept {
    return daemon_of(host).key_file_text().c_str();
}

const harness_function *find_function(const LoadedPlugin &plugin, std::string_view name) {
    const auto &d = plugin.descriptor();
    for (std::size_t i = 0; i < d.function_count; ++i)
        if (name == function_at(d, i).name) return &function_at(d, i);
    return nullptr;
}

int host_call_local(void *host, const char *package, const char *component, const char *function, const void *args,
                    std::size_t args_len, harness_buf *out, char *err, std::size_t errlen) noexcept {
    try {
        if (!package || !component || !function || !out || (!args && args_len > 0)) {
            copy_message("call_local: null package, component, function, args or out", err, errlen);
            return HARNESS_ERR_INVALID_ARGUMENT;
        }
        ComponentName name{package, component};
        if (!is_valid_name_part(name.package) || !is_valid_name_part(name.component)) {
            copy_message("call_local: invalid component name " + name.to_string(), err, errlen);
            return HARNESS_ERR_INVALID_ARGUMENT;
        }
        Daemon &d = daemon_of(host);
        // Once the daemon stops, a new call is refused with NOT_FOUND, not
        // BUSY: callers retry on BUSY, and nothing comes back now.
        auto refuse_stopping = [&] {
            copy_message("call_local: the daemon is stopping; " + name.to_string() + " takes no new calls", err,
                         errlen);
            return HARNESS_ERR_NOT_FOUND;
        };
        if (d.plugins_stopping()) return refuse_stopping();
        auto plugin = d.find_or_load(name);
        if (!plugin) {
            copy_message("call_local: " + plugin.error().describe(), err, errlen);
            return plugin.error().status;
        }
        const harness_function *f = find_function(**plugin, function);
        if (!f) {
            copy_message("call_local: no function \"" + std::string(function) + "\" in " + name.to_string(), err,
                         errlen);
            return HARNESS_ERR_NOT_FOUND;
        }
        // Only PACKED: an AUTO function needs its signature checked and its
        // result packed, which the remote path does; RAW needs a socket.
        if (f->convention != HARNESS_CALL_PACKED || !f->packed) {
            copy_message("call_local: " + name.to_string() + "/" + function + " is not a PACKED function", err, errlen);
            return HARNESS_ERR_NOT_SUPPORTED;
        }
        d.note_plugin_call(__builtin_return_address(0), **plugin);
        PluginCall in_flight(**plugin);
        if (!in_flight) return refuse_stopping();  // the stop began since the check above
        harness_buf call_err{};
        harness_call_ctx ctx{sizeof(harness_call_ctx), (*plugin)->state, d.host_api(), &call_err};
        harness_reader reader = harness_reader_make(args, args_len);
        int status = f->packed(&ctx, &reader, out);
        if (status != HARNESS_OK) {
            std::string why = call_err.len ? std::string(reinterpret_cast<const char *>(call_err.data), call_err.len)
                                           : std::string(harness_status_string(status));
            copy_message(name.to_string() + "/" + function + ": " + why, err, errlen);
        } else if (out->error) {
            copy_message("call_local: out of memory packing the reply", err, errlen);
            status = HARNESS_ERR_INTERNAL;
        }
        harness_buf_free(&call_err);
        return status;
    } catch (const std::exception &e) {
        copy_message(std::string("call_local: ") + e.what(), err, errlen);
    } catch (...) {
        copy_message("call_local: unknown exception", err, errlen);
    }
    return HARNESS_ERR_INTERNAL;
}

}  // namespace

harness_host_api make_daemon_host_api(Daemon *daemon) {
    harness_host_api api{};
    api.struct_size = sizeof api;
    api.host = daemon;
    api.load = host_load;
    api.log = host_log;
    api.subscribe_members = host_subscribe;
    api.member_id = host_member_id;
    api.list_members = host_list_members;
    api.root_dir = host_root_dir;
    api.key_file = host_key_file;
    api.call_local = host_call_local;
    return api;
}

}  // namespace harness::hcore
