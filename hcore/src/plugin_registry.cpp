#include "plugin_registry.hpp"

namespace harness::hcore {

PluginRegistry::PluginRegistry(Resolver resolver, const harness_host_api *host_api, Logger &log)
    : resolver_(std::move(resolver)), host_api_(host_api), log_(log)
{
}

PluginRegistry::~PluginRegistry() { unload_all(); }

Result<const LoadedPlugin *> PluginRegistry::load(const ComponentName &name)
{
    std::lock_guard lock(load_mutex_);
    if (closed_) return make_error(HARNESS_ERR_BUSY, "the daemon is shutting down");
    return load_locked(name);
}

Result<const LoadedPlugin *> PluginRegistry::load_locked(const ComponentName &name)
{
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
        return make_error(HARNESS_ERR_LOAD_FAILED, "asked for " + name.to_string() + " but the plugin is " +
                                                       d.package + "/" + d.component);
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
            return make_error(HARNESS_ERR_LOAD_FAILED, "dependency " + dep_text + " of " + name.to_string() + ": " +
                                                           loaded.error().describe());
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
    log_.info("loaded " + name.to_string() + " " + d.version + " from " + origin_name(where->origin) + " (" +
              where->shared_object.string() + ")");

    std::unique_lock map_lock(map_mutex_);
    LoadedPlugin *raw = plugin.get();
    plugins_.emplace(name, std::move(plugin));
    order_.push_back(raw);
    return static_cast<const LoadedPlugin *>(raw);
}

Result<PluginRegistry::ForProcess> PluginRegistry::resolve_for_process(const ComponentName &name) const
{
    auto where = resolver_.resolve(name);
    if (!where) return where.error();
    auto manifest = read_manifest(where->manifest);
    if (!manifest) return manifest.error();
    if (manifest->package != name.package || manifest->component != name.component)
        return make_error(HARNESS_ERR_LOAD_FAILED, "asked for " + name.to_string() + " but the manifest at " +
                                                       where->manifest.string() + " names " + manifest->package +
                                                       "/" + manifest->component);
    if (manifest->level != HARNESS_LEVEL_APPLICATION)
        return make_error(HARNESS_ERR_NOT_SUPPORTED,
                          name.to_string() + " is a daemon-level plugin: it runs inside a daemon and is called "
                                             "through the VM, never loaded into an application process");
    log_.info("resolved " + name.to_string() + " " + manifest->version + " for a process from " +
              origin_name(where->origin) + " (" + where->shared_object.string() + ")");
    return ForProcess{*where, manifest->version};
}

const LoadedPlugin *PluginRegistry::find(const ComponentName &name) const
{
    std::shared_lock lock(map_mutex_);
    auto it = plugins_.find(name);
    return it == plugins_.end() ? nullptr : it->second.get();
}

std::vector<const LoadedPlugin *> PluginRegistry::all() const
{
    std::shared_lock lock(map_mutex_);
    return {order_.begin(), order_.end()};
}

void PluginRegistry::unload_all()
{
    std::lock_guard lock(load_mutex_);
    closed_ = true;
    std::unique_lock map_lock(map_mutex_);
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
        LoadedPlugin *p = *it;
        if (p->initialized && p->descriptor().fini) p->descriptor().fini(p->state);
        p->initialized = false;
    }
    order_.clear();
    plugins_.clear();
}

} // namespace harness::hcore
