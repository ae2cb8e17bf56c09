// harness/common/loader.hpp — finding and loading plugin shared objects.
//
// Shared by hcored (daemon-level plugins) and Hlib (application-level plugins
// loaded straight into an MPI process). Resolution order (docs/hcore.md):
//   <root>/lib/<PKG>/<COMP>.so                      installed by hand
//   <root>/cache/lib/<PKG>/<COMP>.so                valid while its TTL lasts
//   a Fetcher (HTTP from signed repositories)        writes into the cache
// The manifest <COMP>.json sits beside each .so. Loading uses dlopen with
// RTLD_NOW | RTLD_LOCAL and checks the descriptor's ABI major, minor and size
// before calling anything in the plugin. A host says its level (a daemon, or
// an application process through Hlib) and is refused a plugin of the other
// level before dlopen. The typed interfaces of ABI 1.2 are found with
// LoadedLibrary::find_interface.
#pragma once

#include <harness/common/plugin.h>
#include <harness/common/result.hpp>
#include <harness/common/signature.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace harness {

struct ComponentName {
    std::string package;
    std::string component;

    std::string to_string() const { return package + "/" + component; }
    bool operator==(const ComponentName &) const = default;
    auto operator<=>(const ComponentName &) const = default;
};

// "PKG/COMP". Names are [A-Za-z0-9_.-]+ and never "." or "..", so they are
// safe as path components.
Result<ComponentName> parse_component_name(std::string_view text);
bool is_valid_name_part(std::string_view part);

// The manifest beside a .so (JSON). The loader cross-checks it against the
// descriptor so a renamed or swapped file is refused.
struct Manifest {
    std::string package;
    std::string component;
    std::string version;
    int abi_major = 0;
    int abi_minor = 0;
    harness_level level = HARNESS_LEVEL_DAEMON;
    harness_instance_policy instance_policy = HARNESS_PER_DAEMON;
    std::vector<std::string> dependencies;  // "PKG/COMP"
    std::chrono::seconds cache_ttl{3600};
    struct Function {
        std::string name;
        harness_convention convention = HARNESS_CALL_PACKED;
        harness_mode default_mode = HARNESS_MODE_INLINE;
        std::string signature;
    };
    std::vector<Function> functions;
    // ABI 1.2: the typed interfaces the plugin exports ("interfaces":
    // [{"name": "…", "version": N}]); checked against the descriptor at load.
    struct Interface {
        std::string name;
        std::uint32_t version = 0;
    };
    std::vector<Interface> interfaces;
};

Result<Manifest> parse_manifest(std::string_view json_text);

// The manifest's words for conventions and modes ("raw", "packed", "auto";
// "default", "inline", "thread", "fork", "service"), used wherever they are
// written out (indexes, consoles, the VM registry).
const char *convention_name(harness_convention convention);
const char *mode_name(harness_mode mode);
Result<Manifest> read_manifest(const std::filesystem::path &file);

// Where a resolved plugin was found.
enum class PluginOrigin { lib, cache, fetched, plugin_path };
const char *origin_name(PluginOrigin origin);

struct ResolvedPlugin {
    std::filesystem::path shared_object;
    std::filesystem::path manifest;
    PluginOrigin origin = PluginOrigin::lib;
};

// The seam for the HTTP step (signed repositories). A Fetcher downloads and
// verifies a plugin and writes it atomically into cache_dir/<PKG>/ (the .so,
// its manifest, and a <COMP>.fetched stamp holding the TTL deadline).
class Fetcher {
public:
    virtual ~Fetcher() = default;
    virtual Result<ResolvedPlugin> fetch(const ComponentName &name, const std::filesystem::path &cache_lib_dir) = 0;
};

class Resolver {
public:
    // fetcher may be null: then only lib/ and cache/ are searched.
    Resolver(std::filesystem::path root, std::shared_ptr<Fetcher> fetcher = nullptr);
    // Directories laid out like <root>/lib, searched in order after it and
    // before the cache, so a daemon finds plugins that ship with it without
    // copying them into every root.
    void set_search_path(std::vector<std::filesystem::path> dirs) { search_path_ = std::move(dirs); }
    Result<ResolvedPlugin> resolve(const ComponentName &name) const;
    const std::filesystem::path &root() const { return root_; }
    const std::vector<std::filesystem::path> &search_path() const { return search_path_; }

private:
    std::filesystem::path root_;
    std::vector<std::filesystem::path> search_path_;
    std::shared_ptr<Fetcher> fetcher_;
};

// Writes the TTL stamp a cache entry needs to be valid (used by fetchers).
Result<void> write_cache_stamp(const std::filesystem::path &cache_lib_dir, const ComponentName &name,
                               std::chrono::system_clock::time_point valid_until);

// A dlopen'ed plugin. The descriptor stays valid until the object is destroyed
// (fini is run by the owner, not here, so that it runs exactly once).
class LoadedLibrary {
public:
    // host_level: the level of the host loading it; a plugin of the other
    // level is refused (HARNESS_ERR_NOT_SUPPORTED) before dlopen. Without it
    // any level opens (tools and tests that only inspect a plugin).
    static Result<std::unique_ptr<LoadedLibrary>> open(const ResolvedPlugin &where,
                                                       std::optional<harness_level> host_level = std::nullopt);
    ~LoadedLibrary();
    LoadedLibrary(const LoadedLibrary &) = delete;
    LoadedLibrary &operator=(const LoadedLibrary &) = delete;

    const harness_plugin_descriptor &descriptor() const { return *descriptor_; }
    const Manifest &manifest() const { return manifest_; }
    const ResolvedPlugin &location() const { return where_; }
    // The function table entry, or null. Checks struct sizes.
    const harness_function *find_function(std::string_view name) const;
    // The exported interface of that name with the highest version at least
    // min_version, or null (also for plugins built before ABI 1.2).
    const harness_interface *find_interface(std::string_view name, std::uint32_t min_version) const;

private:
    LoadedLibrary() = default;
    void *handle_ = nullptr;
    const harness_plugin_descriptor *descriptor_ = nullptr;
    Manifest manifest_;
    ResolvedPlugin where_;
};

// The i-th entry of a descriptor's function table. Entries are laid out with
// the plugin's own stride (its first entry's struct_size), so a plugin built
// against a newer minor with larger entries is still walked correctly.
inline const harness_function &function_at(const harness_plugin_descriptor &d, std::size_t i) {
    auto base = reinterpret_cast<const unsigned char *>(d.functions);
    return *reinterpret_cast<const harness_function *>(base + i * d.functions[0].struct_size);
}

// How many interfaces a descriptor exports: 0 for a descriptor built before
// ABI 1.2 (its struct_size ends before the field).
std::size_t interface_count(const harness_plugin_descriptor &d);

// The i-th interface entry, laid out with the plugin's own stride like
// function_at. Only for i < interface_count(d) of a validated descriptor.
inline const harness_interface &interface_at(const harness_plugin_descriptor &d, std::size_t i) {
    auto base = reinterpret_cast<const unsigned char *>(d.interfaces);
    return *reinterpret_cast<const harness_interface *>(base + i * d.interfaces[0].struct_size);
}

// Checks a descriptor before anything in the plugin is called: ABI major equal,
// ABI minor not newer than ours, struct sizes at least the 1.0 sizes, names
// present, every function entry well-formed (AUTO signatures parse), and —
// when struct_size covers it — the 1.2 interface table: a table present when
// the count is not zero, entries at least the 1.2 size, each with a name and
// an ops pointer, no (name, version) twice.
Result<void> validate_descriptor(const harness_plugin_descriptor *d);

}  // namespace harness
