// The daemon's loaded plugins.
//
// load() resolves a component (lib → cache → repository), opens it, loads the
// manifest's dependencies first, then runs init with the daemon's host API —
// whose load() re-enters here, so an init can pull in what it needs (the
// paper's load dependency tree). Loading is idempotent and serialized; a cycle
// is an error. Lookups for calls take a shared lock only; plugins are never
// unloaded while the daemon runs, so LoadedPlugin pointers stay valid.
// At shutdown the finis run without the lookup lock: a fini that joins a
// thread blocked in a lookup or a load must not deadlock the daemon.
#pragma once

#include <harness/common/loader.hpp>
#include <harness/common/log.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace harness::hcore {

struct LoadedPlugin {
    ComponentName name;
    std::unique_ptr<LoadedLibrary> library;
    void *state = nullptr;
    bool initialized = false;
    const void *base = nullptr;  // where its shared object is mapped: names the caller of a host call
    // Shutdown: set just before its fini. Lookups no longer find it and new
    // calls from other plugins' threads are refused; calls already in flight
    // (counted by PluginCall) end before the fini runs.
    std::atomic<bool> stopping{false};
    mutable std::atomic<int> calls_in_flight{0};
    std::vector<Signature> signatures;  // per function index; empty Signature for non-AUTO

    const harness_plugin_descriptor &descriptor() const { return library->descriptor(); }
};

// A call into a plugin from another plugin's thread (the host API's
// call_local), held against unload_all until it returns. False when the
// plugin is being stopped: the caller reports that the daemon is stopping.
class PluginCall {
public:
    explicit PluginCall(const LoadedPlugin &p) : plugin_(p) {
        plugin_.calls_in_flight.fetch_add(1);
        if (plugin_.stopping) release();
    }
    ~PluginCall() { release(); }
    PluginCall(const PluginCall &) = delete;
    PluginCall &operator=(const PluginCall &) = delete;
    explicit operator bool() const { return held_; }

private:
    void release() {
        if (held_) plugin_.calls_in_flight.fetch_sub(1);
        held_ = false;
    }
    const LoadedPlugin &plugin_;
    bool held_ = true;
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
    std::vector<const LoadedPlugin *> all() const;  // in load order
    // unload_all has begun: calls between plugins that start now are refused,
    // so one in flight that waits on another plugin ends instead of waiting
    // for a VM that is going away.
    bool closed() const { return closed_; }
    // A plugin's code (the return address of its host call) called `callee`:
    // the caller is stopped before the callee at shutdown.
    void note_call(const void *return_address, const LoadedPlugin &callee);
    // Runs every fini once, each after the plugins seen calling it stopped
    // (else newest first) and the calls in flight into it returned. Further
    // loads are refused.
    void unload_all();

private:
    Result<const LoadedPlugin *> load_locked(const ComponentName &name);
    const LoadedPlugin *plugin_at(const void *base) const;
    void stop(LoadedPlugin &p);

    Resolver resolver_;
    const harness_host_api *host_api_;
    Logger &log_;
    OnePerVmCheck one_per_vm_check_;

    std::recursive_mutex load_mutex_;      // serializes loads; init may re-enter
    std::set<ComponentName> in_progress_;  // cycle detection
    std::atomic<bool> closed_{false};      // set once by unload_all; loads refused

    mutable std::shared_mutex map_mutex_;
    std::map<ComponentName, std::unique_ptr<LoadedPlugin>> plugins_;
    std::vector<LoadedPlugin *> order_;

    std::mutex calls_mutex_;
    std::map<const void *, const LoadedPlugin *> caller_at_;                 // return address -> caller
    std::set<std::pair<const LoadedPlugin *, const LoadedPlugin *>> calls_;  // (caller, callee)
};

}  // namespace harness::hcore
