#include <harness/common/loader.hpp>

#include <dlfcn.h>

#include <cstddef>
#include <set>
#include <string>
#include <utility>

namespace harness {

namespace {

// The sizes of the 1.0 structs: a plugin's struct may be larger (a newer minor
// added fields at the end) but never smaller. The 1.0 and 1.1 descriptors end
// where 1.2 added the interface table.
constexpr std::size_t kDescriptorSize10 = offsetof(harness_plugin_descriptor, interface_count);
constexpr std::size_t kDescriptorSize12 = sizeof(harness_plugin_descriptor);
constexpr std::size_t kFunctionSize10 = sizeof(harness_function);
constexpr std::size_t kInterfaceSize12 = sizeof(harness_interface);
// More entries than any real plugin exports: a garbage count is refused
// instead of walked.
constexpr std::size_t kMaxInterfaces = 1024;

Error abi_error(const std::string &why) {
    return make_error(HARNESS_ERR_ABI_MISMATCH, why);
}

const char *level_name(std::uint32_t level) {
    return level == HARNESS_LEVEL_APPLICATION ? "application" : "daemon";
}

// The interface table, when the descriptor is large enough to hold one.
Result<void> validate_interfaces(const harness_plugin_descriptor &d) {
    std::size_t count = interface_count(d);
    if (count == 0) return {};
    if (count > kMaxInterfaces)
        return abi_error("descriptor lists " + std::to_string(count) + " interfaces (at most " +
                         std::to_string(kMaxInterfaces) + ")");
    if (!d.interfaces) return abi_error("descriptor lists " + std::to_string(count) + " interfaces but has no table");
    if (d.interfaces[0].struct_size < kInterfaceSize12)
        return abi_error("interface entries of " + std::to_string(d.interfaces[0].struct_size) +
                         " bytes are smaller than ABI 1.2's " + std::to_string(kInterfaceSize12));
    std::set<std::pair<std::string, std::uint32_t>> seen;
    for (std::size_t i = 0; i < count; ++i) {
        const harness_interface &e = interface_at(d, i);
        std::string where = "interface #" + std::to_string(i);
        if (e.struct_size < kInterfaceSize12) return abi_error(where + " entry is smaller than ABI 1.2's");
        if (!e.name || !*e.name) return abi_error(where + " has no name");
        where = "interface " + std::string(e.name) + " v" + std::to_string(e.version);
        if (!e.ops) return abi_error(where + " has no ops table");
        if (!seen.emplace(e.name, e.version).second) return abi_error(where + " is exported twice");
    }
    return {};
}

// The manifest lists exactly the (name, version) pairs the descriptor exports,
// so what a repository index or console shows is what a process will get.
Result<void> check_manifest_interfaces(const Manifest &m, const harness_plugin_descriptor &d) {
    std::set<std::pair<std::string, std::uint32_t>> listed, exported;
    for (const auto &i : m.interfaces) listed.emplace(i.name, i.version);
    for (std::size_t i = 0; i < interface_count(d); ++i)
        exported.emplace(interface_at(d, i).name, interface_at(d, i).version);
    for (const auto &[name, version] : exported)
        if (!listed.count({name, version}))
            return make_error(HARNESS_ERR_LOAD_FAILED,
                              "the plugin exports interface " + name + " v" + std::to_string(version) +
                                  " that its manifest does not list");
    for (const auto &[name, version] : listed)
        if (!exported.count({name, version}))
            return make_error(HARNESS_ERR_LOAD_FAILED,
                              "the manifest lists interface " + name + " v" + std::to_string(version) +
                                  " that the plugin does not export");
    return {};
}

const char *convention_name(std::uint32_t c) {
    switch (c) {
    case HARNESS_CALL_RAW: return "raw";
    case HARNESS_CALL_PACKED: return "packed";
    case HARNESS_CALL_AUTO: return "auto";
    default: return "unknown";
    }
}

const char *mode_name(std::uint32_t m) {
    switch (m) {
    case HARNESS_MODE_DEFAULT:
    case HARNESS_MODE_INLINE: return "inline";
    case HARNESS_MODE_THREAD: return "thread";
    case HARNESS_MODE_FORK: return "fork";
    case HARNESS_MODE_SERVICE: return "service";
    default: return "unknown";
    }
}

// The manifest's function list is what hpublish publishes, repository indexes
// show and hconsole lists before anything is loaded; it is written by hand
// beside the descriptor, so it is held to the descriptor here: the same names,
// and for each the same convention, default mode and (AUTO) signature. A
// descriptor's DEFAULT mode runs inline, as the daemon does.
Result<void> check_manifest_functions(const Manifest &m, const harness_plugin_descriptor &d) {
    auto refuse = [&](const std::string &why) {
        return make_error(HARNESS_ERR_LOAD_FAILED, m.package + "/" + m.component + ": " + why);
    };
    std::set<std::string> exported;
    for (std::size_t i = 0; i < d.function_count; ++i) {
        const harness_function &f = function_at(d, i);
        exported.insert(f.name);
        const Manifest::Function *listed = nullptr;
        for (const auto &mf : m.functions)
            if (mf.name == f.name) listed = &mf;
        std::string name = f.name;
        if (!listed) return refuse("the plugin exports function " + name + " that its manifest does not list");
        if (static_cast<std::uint32_t>(listed->convention) != f.convention)
            return refuse("function " + name + " is " + convention_name(f.convention) + " but the manifest says " +
                          convention_name(listed->convention));
        if (std::string(mode_name(listed->default_mode)) != mode_name(f.default_mode))
            return refuse("function " + name + " runs " + mode_name(f.default_mode) +
                          " by default but the manifest says " + mode_name(listed->default_mode));
        if (f.convention == HARNESS_CALL_AUTO && listed->signature != f.signature)
            return refuse("function " + name + " has signature " + f.signature + " but the manifest says \"" +
                          listed->signature + "\"");
    }
    for (const auto &mf : m.functions)
        if (!exported.count(mf.name))
            return refuse("the manifest lists function " + mf.name + " that the plugin does not export");
    return {};
}

}  // namespace

std::size_t interface_count(const harness_plugin_descriptor &d) {
    return d.struct_size >= kDescriptorSize12 ? d.interface_count : 0;
}

Result<void> validate_descriptor(const harness_plugin_descriptor *d) {
    if (!d) return abi_error("the entry symbol returned no descriptor");
    if (d->abi_major != HARNESS_PLUGIN_ABI_MAJOR)
        return abi_error("plugin ABI " + std::to_string(d->abi_major) + "." + std::to_string(d->abi_minor) +
                         ", this host speaks " + std::to_string(HARNESS_PLUGIN_ABI_MAJOR) + "." +
                         std::to_string(HARNESS_PLUGIN_ABI_MINOR));
    if (d->abi_minor > HARNESS_PLUGIN_ABI_MINOR)
        return abi_error("plugin needs ABI minor " + std::to_string(d->abi_minor) + ", this host has " +
                         std::to_string(HARNESS_PLUGIN_ABI_MINOR));
    if (d->struct_size < kDescriptorSize10)
        return abi_error("descriptor of " + std::to_string(d->struct_size) + " bytes is smaller than ABI 1.0's");
    if (!d->package || !d->component || !d->version) return abi_error("descriptor lacks package, component or version");
    if (d->function_count > 0 && !d->functions) return abi_error("descriptor lists functions but has no table");
    if (d->level > HARNESS_LEVEL_APPLICATION || d->instance_policy > HARNESS_ONE_PER_VM)
        return abi_error("descriptor has an unknown level or instance policy");
    if (d->function_count > 0 && d->functions[0].struct_size < kFunctionSize10)
        return abi_error("function entries are smaller than ABI 1.0's");
    for (std::size_t i = 0; i < d->function_count; ++i) {
        const harness_function &f = function_at(*d, i);
        std::string where = "function #" + std::to_string(i);
        if (f.struct_size < kFunctionSize10) return abi_error(where + " entry is smaller than ABI 1.0's");
        if (!f.name) return abi_error(where + " has no name");
        where = "function " + std::string(f.name);
        if (f.default_mode > HARNESS_MODE_SERVICE) return abi_error(where + " has an unknown default mode");
        switch (f.convention) {
        case HARNESS_CALL_RAW:
            if (!f.raw) return abi_error(where + " is RAW without a raw pointer");
            break;
        case HARNESS_CALL_PACKED:
            if (!f.packed) return abi_error(where + " is PACKED without a packed pointer");
            break;
        case HARNESS_CALL_AUTO: {
            if (!f.automatic || !f.signature) return abi_error(where + " is AUTO without a wrapper or signature");
            auto sig = parse_signature(f.signature);
            if (!sig) return abi_error(where + ": " + sig.error().message);
            break;
        }
        default: return abi_error(where + " has an unknown calling convention");
        }
    }
    return validate_interfaces(*d);
}

static Error wrong_level(const ComponentName &name, std::uint32_t plugin_level, harness_level host_level) {
    std::string what = name.to_string() +
        (plugin_level == HARNESS_LEVEL_APPLICATION ? " is an application" : " is a daemon") + "-level plugin";
    if (host_level == HARNESS_LEVEL_DAEMON)
        return make_error(HARNESS_ERR_NOT_SUPPORTED,
                          what +
                              ": it is loaded into application processes through Hlib (DirectPlugin), never "
                              "into a daemon");
    return make_error(HARNESS_ERR_NOT_SUPPORTED,
                      what +
                          ": it runs inside a daemon and is called through the VM (load, then call), never "
                          "loaded into an application process");
}

Result<std::unique_ptr<LoadedLibrary>> LoadedLibrary::open(const ResolvedPlugin &where,
                                                           std::optional<harness_level> host_level) {
    auto manifest = read_manifest(where.manifest);
    if (!manifest) return manifest.error();
    // The manifest's level is checked before dlopen, so a plugin of the other
    // level never runs even its constructors in this host.
    if (host_level && manifest->level != *host_level)
        return wrong_level({manifest->package, manifest->component}, manifest->level, *host_level);
    std::unique_ptr<LoadedLibrary> lib(new LoadedLibrary());
    lib->where_ = where;
    lib->manifest_ = std::move(manifest.value());
    // RTLD_LOCAL: two plugins may define the same symbols without clashing.
    lib->handle_ = ::dlopen(where.shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle_) {
        const char *why = ::dlerror();
        return make_error(HARNESS_ERR_LOAD_FAILED, std::string("dlopen: ") + (why ? why : "unknown error"));
    }
    auto entry = reinterpret_cast<harness_plugin_entry_fn>(::dlsym(lib->handle_, HARNESS_PLUGIN_ENTRY));
    if (!entry)
        return make_error(HARNESS_ERR_LOAD_FAILED,
                          where.shared_object.string() + " does not export " + HARNESS_PLUGIN_ENTRY);
    const harness_plugin_descriptor *d = entry();
    if (auto ok = validate_descriptor(d); !ok) return ok.error();
    const Manifest &m = lib->manifest_;
    if (m.package != d->package || m.component != d->component)
        return make_error(HARNESS_ERR_LOAD_FAILED,
                          "manifest names " + m.package + "/" + m.component + " but the shared object is " +
                              d->package + "/" + d->component);
    if (m.abi_major != d->abi_major)
        return abi_error("manifest says ABI major " + std::to_string(m.abi_major) + ", descriptor " +
                         std::to_string(d->abi_major));
    if (m.level != d->level)
        return make_error(HARNESS_ERR_LOAD_FAILED,
                          "manifest says level " + std::string(level_name(m.level)) + " but the descriptor says " +
                              level_name(d->level));
    if (auto ok = check_manifest_functions(m, *d); !ok) return ok.error();
    if (auto ok = check_manifest_interfaces(m, *d); !ok) return ok.error();
    lib->descriptor_ = d;
    return lib;
}

LoadedLibrary::~LoadedLibrary() {
    if (handle_) ::dlclose(handle_);
}

const harness_interface *LoadedLibrary::find_interface(std::string_view name, std::uint32_t min_version) const {
    if (!descriptor_) return nullptr;
    const harness_interface *best = nullptr;
    for (std::size_t i = 0; i < interface_count(*descriptor_); ++i) {
        const harness_interface &e = interface_at(*descriptor_, i);
        if (name == e.name && e.version >= min_version && (!best || e.version > best->version)) best = &e;
    }
    return best;
}

const harness_function *LoadedLibrary::find_function(std::string_view name) const {
    if (!descriptor_) return nullptr;
    for (std::size_t i = 0; i < descriptor_->function_count; ++i) {
        const harness_function &f = function_at(*descriptor_, i);
        if (name == f.name) return &f;
    }
    return nullptr;
}

}  // namespace harness
