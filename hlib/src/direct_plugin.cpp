// DirectPlugin: a component loaded into this process and called without a
// daemon — through its native pointer (AUTO) or its packed entry.
#include "direct_host.hpp"

#include <harness/common/signature.hpp>
#include <harness/hlib/hlib.hpp>

namespace harness::hlib {

Result<std::unique_ptr<DirectPlugin>> DirectPlugin::load(const std::filesystem::path &root, const ComponentName &name) {
    return load(root, name, DirectLoadOptions{});
}

Result<std::unique_ptr<DirectPlugin>> DirectPlugin::load(const std::filesystem::path &root, const ComponentName &name,
                                                         const DirectLoadOptions &options) {
    const harness_host_api *host = detail::direct_host(root);
    auto plugin = detail::open_and_init(root, name, host, options);
    if (!plugin) return plugin.error();
    std::unique_ptr<DirectPlugin> p(new DirectPlugin());
    p->library_ = std::move(plugin->library);
    p->state_ = plugin->state;
    p->host_ = host;
    return p;
}

DirectPlugin::~DirectPlugin() {
    if (library_ && library_->descriptor().fini) library_->descriptor().fini(state_);
}

Result<const void *> DirectPlugin::interface(std::string_view name, std::uint32_t min_version) const {
    if (const harness_interface *found = library_->find_interface(name, min_version)) return found->ops;
    const auto &d = library_->descriptor();
    std::string exported;
    for (std::size_t i = 0; i < interface_count(d); ++i)
        exported += std::string(exported.empty() ? "" : ", ") + interface_at(d, i).name + " v" +
            std::to_string(interface_at(d, i).version);
    std::string plugin = std::string(d.package) + "/" + d.component + " " + d.version;
    return make_error(HARNESS_ERR_NOT_FOUND,
                      plugin + " has no interface " + std::string(name) + " v" + std::to_string(min_version) +
                          " or newer (it exports " + (exported.empty() ? std::string("none") : exported) + ")");
}

Result<void (*)(void)> DirectPlugin::native(std::string_view function, std::string_view signature) const {
    const harness_function *f = library_->find_function(function);
    std::string name =
        library_->manifest().package + "/" + library_->manifest().component + " " + std::string(function);
    if (!f) return make_error(HARNESS_ERR_NOT_FOUND, "no function " + name);
    if (f->convention != HARNESS_CALL_AUTO)
        return make_error(HARNESS_ERR_TYPE_MISMATCH, name + " is not an AUTO function (use call_packed)");
    std::string_view declared = f->signature ? f->signature : "";
    if (declared != signature)
        return make_error(HARNESS_ERR_TYPE_MISMATCH,
                          name + " is " + std::string(declared) + ", asked for as " + std::string(signature));
    if (!f->native)
        return make_error(HARNESS_ERR_NOT_SUPPORTED, name + " publishes no native pointer; use call_packed");
    return f->native;
}

Result<Bytes> DirectPlugin::call_packed(std::string_view function, std::span<const std::uint8_t> args) const {
    const harness_function *f = library_->find_function(function);
    if (!f) return make_error(HARNESS_ERR_NOT_FOUND, "no function " + std::string(function));
    Packer error;
    harness_call_ctx ctx{};
    ctx.struct_size = sizeof ctx;
    ctx.plugin_state = state_;
    ctx.host = host_;
    ctx.error = error.c_buf();
    auto failed = [&](int rc) {
        auto msg = error.view();
        std::string text(msg.begin(), msg.end());
        if (rc <= 0 || rc >= HARNESS_STATUS_COUNT_) rc = HARNESS_ERR_PLUGIN_FAILED;
        return make_error(rc, text.empty() ? std::string(function) + " failed" : text);
    };

    if (f->convention == HARNESS_CALL_PACKED && f->packed) {
        harness_reader reader = harness_reader_make(args.data(), args.size());
        Packer out;
        int rc = f->packed(&ctx, &reader, out.c_buf());
        if (rc != HARNESS_OK) return failed(rc);
        if (out.failed()) return make_error(HARNESS_ERR_INTERNAL, "out of memory packing the reply");
        return out.take();
    }
    if (f->convention == HARNESS_CALL_AUTO && f->automatic) {
        auto sig = parse_signature(f->signature ? f->signature : "");
        if (!sig) return sig.error();
        auto values = unpack_values(*sig, args);
        if (!values) return values.error();
        harness_value result{};
        int rc = f->automatic(&ctx, values->data(), values->size(), &result);
        if (rc != HARNESS_OK) {
            release_value(result);
            return failed(rc);
        }
        Packer out;
        if (sig->result != 0) pack_value(out, result);
        release_value(result);
        return out.take();
    }
    return make_error(HARNESS_ERR_NOT_SUPPORTED, std::string(function) + " cannot be called with packed arguments");
}

}  // namespace harness::hlib
