// The vm/drd descriptor: the plugin's one exported symbol, and the C entry
// points that turn pack buffers into Service calls. No exception crosses
// these functions; every failure becomes a status and a message.
#include "service.hpp"

#include <harness/common/plugin.hpp>

namespace {

using harness::drd::Service;
using Method = harness::Result<void> (Service::*)(harness::Unpacker &, harness::Packer &);

template <Method M>
int call(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept {
    return harness::guarded_call(ctx, "vm/drd", [&]() -> harness::Result<void> {
        auto *service = static_cast<Service *>(ctx->plugin_state);
        if (!service) return harness::make_error(HARNESS_ERR_INTERNAL, "vm/drd is not initialized");
        harness::Unpacker in({args->data + args->pos, args->len - args->pos});
        harness::Packer reply;
        if (auto r = (service->*M)(in, reply); !r) return r;
        if (reply.failed()) return harness::make_error(HARNESS_ERR_INTERNAL, "vm/drd: out of memory");
        harness_buf_append(out, reply.view().data(), reply.size());
        return {};
    });
}

int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept {
    return harness::guarded_init(err, errlen, "vm/drd", [&]() -> harness::Result<void> {
        auto s = Service::create(host);
        if (!s) return s.error();
        *state = s.value().release();
        return {};
    });
}

void fini(void *state) noexcept {
    try {
        delete static_cast<Service *>(state);
    } catch (...) {}
}

// Everything may wait for consensus or a long poll: a thread per call, so the
// daemon's I/O thread never blocks.
constexpr harness_function kFunctions[] = {
    harness::packed_function("put", &call<&Service::put>, HARNESS_MODE_THREAD),
    harness::packed_function("cas", &call<&Service::cas>, HARNESS_MODE_THREAD),
    harness::packed_function("get", &call<&Service::get>, HARNESS_MODE_THREAD),
    harness::packed_function("del", &call<&Service::del>, HARNESS_MODE_THREAD),
    harness::packed_function("scan", &call<&Service::scan>, HARNESS_MODE_THREAD),
    harness::packed_function("watch", &call<&Service::watch>, HARNESS_MODE_THREAD),
    harness::packed_function("status", &call<&Service::status>, HARNESS_MODE_THREAD),
    // Internal: a daemon's raft id and address (the leader asks joiners), and
    // the leader's side of forwarded writes and linearizable reads.
    harness::packed_function("raft_info", &call<&Service::raft_info>, HARNESS_MODE_THREAD),
    harness::packed_function("forward", &call<&Service::forward>, HARNESS_MODE_THREAD),
};

constexpr harness_plugin_descriptor kDescriptor = harness::plugin_descriptor(
    {.package = "vm", .component = "drd", .version = "1.0.0", .init = &init, .fini = &fini}, kFunctions);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
