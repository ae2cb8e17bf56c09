#include "plugin_registry.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace harness::hcore {

namespace {
// How long a stopping plugin waits for calls into it to return.
constexpr std::chrono::seconds call_drain_timeout{5};
}  // namespace

PluginRegistry::PluginRegistry(Resolver resolver, const harness_host_api *host_api, Logger &log)
    : resolver_(std::move(resolver)), host_api_(host_api), log_(log) {}

PluginRegistry::~PluginRegistry() {
    unload_all();
}

Result<const LoadedPlugin *> PluginRegistry::load(const ComponentName &name) {
    // Checked before the lock too: unload_all holds it while finis run, and a
    // fini may wait for a thread that is loading.
    if (closed_) return make_error(HARNESS_ERR_BUSY, "the daemon is shutting down");
    std::lock_guard lock(load_mutex_);
    if (closed_) return make_error(HARNESS_ERR_BUSY, "the daemon is shutting down");
    return load_locked(name);
}

Result<const LoadedPlugin *> PluginRegistry::load_locked(const ComponentName &name) {
    if (auto *p = find(name)) return p;
    if (in_progress_.count(name))
        return make_error(HARNESS_ERR_LOAD_FAILED, "dependency cycle through " + name.to_string());

    auto where = resolver_.resolve(name);
    if (!where) return where.error();
    auto library = LoadedLibrary::open(*where, HARNESS_LEVEL_DAEMON);
    if (!library) {
        log_.warning("refused " + name.to_string() + " from " + where->shared_object.string() + ": " +
                     library.error().describe());
        return library.error();
    }
    const harness_plugin_descriptor &d = (*library)->descriptor();
    if (name.package != d.package || name.component != d.component)
        return make_error(HARNESS_ERR_LOAD_FAILED,
                          "asked for " + name.to_string() + " but the plugin is " + d.package + "/" + d.component);
    if (d.instance_policy == HARNESS_ONE_PER_VM && one_per_vm_check_) {
        if (auto ok = one_per_vm_check_(name); !ok) return ok.error();
    }

    in_progress_.insert(name);
    struct Done {
        std::set<ComponentName> &set;
        const ComponentName &n;
        ~Done() { set.erase(n); }
    } done{in_progress_, name};

    for (const auto &dep_text : (*library)->manifest().dependencies) {
        auto dep = parse_component_name(dep_text);
        if (!dep) return dep.error();
        auto loaded = load_locked(*dep);
        if (!loaded)
            return make_error(HARNESS_ERR_LOAD_FAILED,
                              "dependency " + dep_text + " of " + name.to_string() + ": " + loaded.error().describe());
    }

    auto plugin = std::make_unique<LoadedPlugin>();
    plugin->name = name;
    for (std::size_t i = 0; i < d.function_count; ++i) {
        const harness_function &f = function_at(d, i);
        plugin->signatures.push_back(f.convention == HARNESS_CALL_AUTO ? *parse_signature(f.signature) : Signature{});
    }
    if (d.init) {
        char err[512] = {};
        int status = d.init(host_api_, &plugin->state, err, sizeof err);
        if (status != HARNESS_OK) {
            std::string why = err[0] ? std::string(err) : std::string(harness_status_string(status));
            log_.warning("init of " + name.to_string() + " failed: " + why);
            return make_error(HARNESS_ERR_LOAD_FAILED, "init of " + name.to_string() + " failed: " + why);
        }
    }
    plugin->initialized = true;
    plugin->library = std::move(library.value());
    if (Dl_info info{}; ::dladdr(&plugin->descriptor(), &info) != 0) plugin->base = info.dli_fbase;
    log_.info("loaded " + name.to_string() + " " + d.version + " from " + origin_name(where->origin) + " (" +
              where->shared_object.string() + ")");

    std::unique_lock map_lock(map_mutex_);
    LoadedPlugin *raw = plugin.get();
    plugins_.emplace(name, std::move(plugin));
    order_.push_back(raw);
    return static_cast<const LoadedPlugin *>(raw);
}

Result<PluginRegistry::ForProcess> PluginRegistry::resolve_for_process(const ComponentName &name) const {
    auto where = resolver_.resolve(name);
    if (!where) return where.error();
    auto manifest = read_manifest(where->manifest);
    if (!manifest) return manifest.error();
    if (manifest->package != name.package || manifest->component != name.component)
        return make_error(HARNESS_ERR_LOAD_FAILED,
                          "asked for " + name.to_string() + " but the manifest at " + where->manifest.string() +
                              " names " + manifest->package + "/" + manifest->component);
    if (manifest->level != HARNESS_LEVEL_APPLICATION)
        return make_error(HARNESS_ERR_NOT_SUPPORTED,
                          name.to_string() +
                              " is a daemon-level plugin: it runs inside a daemon and is called "
                              "through the VM, never loaded into an application process");
    log_.info("resolved " + name.to_string() + " " + manifest->version + " for a process from " +
              origin_name(where->origin) + " (" + where->shared_object.string() + ")");
    return ForProcess{*where, manifest->version};
}

const LoadedPlugin *PluginRegistry::find(const ComponentName &name) const {
    std::shared_lock lock(map_mutex_);
    auto it = plugins_.find(name);
    return it == plugins_.end() || it->second->stopping ? nullptr : it->second.get();
}

std::vector<const LoadedPlugin *> PluginRegistry::all() const {
    std::shared_lock lock(map_mutex_);
    return {order_.begin(), order_.end()};
}

const LoadedPlugin *PluginRegistry::plugin_at(const void *base) const {
    std::shared_lock lock(map_mutex_);
    for (const LoadedPlugin *p : order_)
        if (p->base == base) return p;
    return nullptr;
}

void PluginRegistry::note_call(const void *return_address, const LoadedPlugin &callee) {
    std::lock_guard lock(calls_mutex_);
    auto it = caller_at_.find(return_address);
    if (it == caller_at_.end()) {
        Dl_info info{};
        const LoadedPlugin *caller = ::dladdr(return_address, &info) != 0 ? plugin_at(info.dli_fbase) : nullptr;
        it = caller_at_.emplace(return_address, caller).first;
    }
    if (it->second && it->second != &callee) calls_.emplace(it->second, &callee);
}

void PluginRegistry::stop(LoadedPlugin &p) {
    p.stopping = true;
    const auto deadline = std::chrono::steady_clock::now() + call_drain_timeout;
    while (p.calls_in_flight.load() > 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (p.calls_in_flight.load() > 0) log_.warning("stopping " + p.name.to_string() + " while calls into it still run");
    if (p.initialized && p.descriptor().fini) p.descriptor().fini(p.state);
    p.initialized = false;
}

void PluginRegistry::unload_all() {
    closed_ = true;
    std::lock_guard lock(load_mutex_);  // a load under way finishes first
    std::vector<LoadedPlugin *> live;
    {
        std::shared_lock map_lock(map_mutex_);
        live.assign(order_.rbegin(), order_.rend());
    }
    std::set<std::pair<const LoadedPlugin *, const LoadedPlugin *>> calls;
    {
        std::lock_guard calls_lock(calls_mutex_);
        calls = calls_;
    }
    // Callers first: a plugin loaded on first use by another (the events
    // service's vm/drd) is newer than its user, yet must outlive it. Without
    // the map lock: a fini may join a thread that is in find().
    while (!live.empty()) {
        auto called_by_live = [&](const LoadedPlugin *callee) {
            return std::any_of(live.begin(), live.end(), [&](const LoadedPlugin *caller) {
                return caller != callee && calls.count({caller, callee}) > 0;
            });
        };
        auto next = std::find_if(live.begin(), live.end(), [&](LoadedPlugin *p) { return !called_by_live(p); });
        if (next == live.end()) next = live.begin();  // calls in a cycle: newest first
        LoadedPlugin *p = *next;
        live.erase(next);
        stop(*p);
    }
    std::unique_lock map_lock(map_mutex_);
    order_.clear();
    plugins_.clear();
}

}  // namespace harness::hcore
