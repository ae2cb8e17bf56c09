#include "direct_host.hpp"

#include <harness/common/log.hpp>

#include <cstdio>
#include <map>
#include <mutex>
#include <set>

namespace harness::hlib::detail {

namespace {

struct Host {
    std::filesystem::path root;
    harness_host_api api{};
    Logger log{"hlib"};
};

struct Dependency {
    Initialised plugin;
};

// Recursive: a dependency's init may load its own dependencies.
std::recursive_mutex registry_mutex;
std::map<std::string, std::unique_ptr<Host>> hosts;                        // by root
std::map<std::pair<std::string, ComponentName>, Dependency> dependencies;  // (root, name)
std::set<std::pair<std::string, ComponentName>> loading;                   // cycle guard

void write_error(char *err, std::size_t errlen, const std::string &message) {
    if (err && errlen > 0) std::snprintf(err, errlen, "%s", message.c_str());
}

int host_load(void *host, const char *package, const char *component, char *err, std::size_t errlen) noexcept {
    try {
        auto *h = static_cast<Host *>(host);
        if (!package || !component) {
            write_error(err, errlen, "load: null package or component");
            return HARNESS_ERR_INVALID_ARGUMENT;
        }
        ComponentName name{package, component};
        if (!is_valid_name_part(name.package) || !is_valid_name_part(name.component)) {
            write_error(err, errlen, "load: bad component name " + name.to_string());
            return HARNESS_ERR_INVALID_ARGUMENT;
        }
        std::lock_guard lock(registry_mutex);
        auto key = std::make_pair(h->root.string(), name);
        if (dependencies.count(key)) return HARNESS_OK;  // idempotent
        if (loading.count(key)) {
            write_error(err, errlen, "load: dependency cycle through " + name.to_string());
            return HARNESS_ERR_LOAD_FAILED;
        }
        loading.insert(key);
        auto plugin = open_and_init(h->root, name, &h->api);
        loading.erase(key);
        if (!plugin) {
            write_error(err, errlen, plugin.error().describe());
            return plugin.error().status;
        }
        dependencies.emplace(key, Dependency{std::move(*plugin)});
        return HARNESS_OK;
    } catch (const std::exception &e) {
        write_error(err, errlen, e.what());
    } catch (...) {
        write_error(err, errlen, "unknown exception");
    }
    return HARNESS_ERR_INTERNAL;
}

void host_log(void *host, int level, const char *message) noexcept {
    try {
        auto *h = static_cast<Host *>(host);
        h->log.log(static_cast<LogLevel>(level < 0 ? 0 : level > 3 ? 3 : level), message ? message : "");
    } catch (...) {}
}

int host_subscribe_members(void *, harness_member_hook, void *) noexcept {
    // Membership events come from a daemon; an application host has none.
    return HARNESS_ERR_NOT_SUPPORTED;
}

const char *host_member_id(void *) noexcept {
    return "";
}

// ABI 1.1: an application host is no VM member and has no daemon root or key.
int host_list_members(void *, harness_member_visitor, void *) noexcept {
    return HARNESS_ERR_NOT_SUPPORTED;
}
const char *host_root_dir(void *) noexcept {
    return "";
}
const char *host_key_file(void *) noexcept {
    return "";
}
int host_call_local(void *, const char *, const char *, const char *, const void *, std::size_t, harness_buf *,
                    char *err, std::size_t errlen) noexcept {
    write_error(err, errlen, "call_local: only a daemon host calls components in-process by name");
    return HARNESS_ERR_NOT_SUPPORTED;
}

}  // namespace

const harness_host_api *direct_host(const std::filesystem::path &root) {
    std::lock_guard lock(registry_mutex);
    auto &h = hosts[root.string()];
    if (!h) {
        h = std::make_unique<Host>();
        h->root = root;
        h->api.struct_size = sizeof(harness_host_api);
        h->api.host = h.get();
        h->api.load = host_load;
        h->api.log = host_log;
        h->api.subscribe_members = host_subscribe_members;
        h->api.member_id = host_member_id;
        h->api.list_members = host_list_members;
        h->api.root_dir = host_root_dir;
        h->api.key_file = host_key_file;
        h->api.call_local = host_call_local;
    }
    return &h->api;
}

Result<Initialised> open_and_init(const std::filesystem::path &root, const ComponentName &name,
                                  const harness_host_api *host, const DirectLoadOptions &options) {
    auto where = resolve_in_process(root, name, options);
    if (!where) return where.error();
    auto library = LoadedLibrary::open(*where, HARNESS_LEVEL_APPLICATION);
    if (!library) return library.error();
    Initialised out{std::move(*library), nullptr};
    const auto &d = out.library->descriptor();
    // A file the daemon named, or one renamed in lib/, must be what was asked for.
    if (name.package != d.package || name.component != d.component)
        return make_error(HARNESS_ERR_LOAD_FAILED,
                          "asked for " + name.to_string() + " but " + where->shared_object.string() + " is " +
                              d.package + "/" + d.component);
    if (d.init) {
        char err[1024] = {};
        int rc = d.init(host, &out.state, err, sizeof err);
        if (rc != HARNESS_OK)
            return make_error(rc == HARNESS_ERR_INTERNAL ? HARNESS_ERR_LOAD_FAILED : rc,
                              "init of " + name.to_string() + " failed: " + err);
    }
    return out;
}

}  // namespace harness::hlib::detail
