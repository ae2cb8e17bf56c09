// The daemon's loaded plugins.
//
// load() resolves a component (lib → cache → repository), opens it, loads the
// manifest's dependencies first, then runs init with the daemon's host API —
// whose load() re-enters here, so an init can pull in what it needs (the
// paper's load dependency tree). Loading is idempotent and serialized; a cycle
// is an error. Lookups for calls take a shared lock only; plugins are never
// unloaded while the daemon runs, so LoadedPlugin pointers stay valid.
#pragma once

#include <harness/loader.hpp>
#include <harness/log.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

namespace harness::hcore {

struct LoadedPlugin {
    ComponentName name;
    std::unique_ptr<LoadedLibrary> library;
    void *state = nullptr;
    bool initialized = false;
    std::vector<Signature> signatures; // per function index; empty Signature for non-AUTO

    const harness_plugin_descriptor &descriptor() const { return library->descriptor(); }
};

class PluginRegistry {
public:
    // Asked before a one-per-VM component is loaded here: an error when another
    // live member already holds it.
    using OnePerVmCheck = std::function<Result<void>(const ComponentName &)>;

    PluginRegistry(Resolver resolver, const harness_host_api *host_api, Logger &log);
    ~PluginRegistry();

    void set_one_per_vm_check(OnePerVmCheck check) { one_per_vm_check_ = std::move(check); }

    // Refuses application-level plugins: those run inside processes.
    Result<const LoadedPlugin *> load(const ComponentName &name);
    // Finds an application-level component for a process (RESOLVE): the same
    // resolution and trust checks as load(), a fetched package written to the
    // cache, but nothing opened in this daemon; a daemon-level component is
    // refused by its manifest.
    struct ForProcess {
        ResolvedPlugin where;
        std::string version;
    };
    Result<ForProcess> resolve_for_process(const ComponentName &name) const;
    const LoadedPlugin *find(const ComponentName &name) const;
    std::vector<const LoadedPlugin *> all() const; // in load order
    // Runs every fini, newest first. Further loads are refused.
    void unload_all();

private:
    Result<const LoadedPlugin *> load_locked(const ComponentName &name);

    Resolver resolver_;
    const harness_host_api *host_api_;
    Logger &log_;
    OnePerVmCheck one_per_vm_check_;

    std::recursive_mutex load_mutex_;     // serializes loads; init may re-enter
    std::set<ComponentName> in_progress_; // cycle detection
    bool closed_ = false;

    mutable std::shared_mutex map_mutex_;
    std::map<ComponentName, std::unique_ptr<LoadedPlugin>> plugins_;
    std::vector<LoadedPlugin *> order_;
};

} // namespace harness::hcore
