#include <harness/loader.hpp>

#include <dlfcn.h>

namespace harness {

namespace {

// The sizes of the 1.0 structs: a plugin's struct may be larger (a newer minor
// added fields at the end) but never smaller.
constexpr std::size_t kDescriptorSize10 = sizeof(harness_plugin_descriptor);
constexpr std::size_t kFunctionSize10 = sizeof(harness_function);

Error abi_error(const std::string &why) { return make_error(HARNESS_ERR_ABI_MISMATCH, why); }

} // namespace

Result<void> validate_descriptor(const harness_plugin_descriptor *d)
{
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
    return {};
}

Result<std::unique_ptr<LoadedLibrary>> LoadedLibrary::open(const ResolvedPlugin &where)
{
    auto manifest = read_manifest(where.manifest);
    if (!manifest) return manifest.error();
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
        return make_error(HARNESS_ERR_LOAD_FAILED, "manifest names " + m.package + "/" + m.component +
                                                       " but the shared object is " + d->package + "/" + d->component);
    if (m.abi_major != d->abi_major)
        return abi_error("manifest says ABI major " + std::to_string(m.abi_major) + ", descriptor " +
                         std::to_string(d->abi_major));
    lib->descriptor_ = d;
    return lib;
}

LoadedLibrary::~LoadedLibrary()
{
    if (handle_) ::dlclose(handle_);
}

const harness_function *LoadedLibrary::find_function(std::string_view name) const
{
    if (!descriptor_) return nullptr;
    for (std::size_t i = 0; i < descriptor_->function_count; ++i) {
        const harness_function &f = function_at(*descriptor_, i);
        if (name == f.name) return &f;
    }
    return nullptr;
}

} // namespace harness
