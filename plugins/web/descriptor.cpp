// The vm/web descriptor: the plugin's one exported symbol. init starts the
// web view when HARNESS_WEB_PORT says so (web_view.hpp); `status` tells a
// caller where it serves.
#include "web_view.hpp"

#include <harness/common/plugin.hpp>

namespace {

using harness::web::WebView;

int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept {
    return harness::guarded_init(err, errlen, "vm/web", [&]() -> harness::Result<void> {
        auto view = WebView::create(host);
        if (!view) return view.error();
        *state = view.value().release();
        return {};
    });
}

void fini(void *state) noexcept {
    try {
        delete static_cast<WebView *>(state);
    } catch (...) {}
}

// status: () → str url ("http://ADDRESS:PORT/", or "" when the view is off).
int status(harness_call_ctx *ctx, harness_reader *, harness_buf *out) noexcept {
    return harness::guarded_call(ctx, "vm/web", [&]() -> harness::Result<void> {
        auto *view = static_cast<WebView *>(ctx->plugin_state);
        if (!view) return harness::make_error(HARNESS_ERR_INTERNAL, "vm/web is not initialized");
        harness::Packer reply;
        reply.str(view->url());
        harness_buf_append(out, reply.view().data(), reply.size());
        return {};
    });
}

constexpr harness_function kFunctions[] = {
    harness::packed_function("status", &status, HARNESS_MODE_INLINE),
};

constexpr harness_plugin_descriptor kDescriptor = harness::plugin_descriptor(
    {.package = "vm", .component = "web", .version = "1.0.0", .init = &init, .fini = &fini}, kFunctions);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
