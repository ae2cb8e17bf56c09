// The vm/drd descriptor: the plugin's one exported symbol, and the C entry
// points that turn pack buffers into Service calls. No exception crosses
// these functions; every failure becomes a status and a message.
#include "service.hpp"

#include <harness/plugin.hpp>

#include <cstdio>

namespace {

using harness::drd::Service;
using Method = harness::Result<void> (Service::*)(harness::Unpacker &, harness::Packer &);

template <Method M>
int call(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) noexcept
{
    try {
        auto *service = static_cast<Service *>(ctx->plugin_state);
        if (!service) {
            harness::set_call_error(ctx, "vm/drd is not initialized");
            return HARNESS_ERR_INTERNAL;
        }
        harness::Unpacker in({args->data + args->pos, args->len - args->pos});
        harness::Packer reply;
        auto r = (service->*M)(in, reply);
        if (!r) {
            harness::set_call_error(ctx, r.error().message);
            return r.error().status;
        }
        if (reply.failed()) {
            harness::set_call_error(ctx, "vm/drd: out of memory");
            return HARNESS_ERR_INTERNAL;
        }
        harness_buf_append(out, reply.view().data(), reply.size());
        return HARNESS_OK;
    } catch (const std::exception &e) {
        harness::set_call_error(ctx, std::string("vm/drd: ") + e.what());
    } catch (...) {
        harness::set_call_error(ctx, "vm/drd: unknown exception");
    }
    return HARNESS_ERR_INTERNAL;
}

int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept
{
    try {
        auto s = Service::create(host);
        if (!s) {
            std::snprintf(err, errlen, "%s", s.error().message.c_str());
            return s.error().status;
        }
        *state = s.value().release();
        return HARNESS_OK;
    } catch (const std::exception &e) {
        std::snprintf(err, errlen, "vm/drd: %s", e.what());
    } catch (...) {
        std::snprintf(err, errlen, "vm/drd: unknown exception");
    }
    return HARNESS_ERR_INTERNAL;
}

void fini(void *state) noexcept
{
    try {
        delete static_cast<Service *>(state);
    } catch (...) {
    }
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

constexpr harness_plugin_descriptor kDescriptor = {
    HARNESS_PLUGIN_ABI_MAJOR,
    HARNESS_PLUGIN_ABI_MINOR,
    sizeof(harness_plugin_descriptor),
    "vm",
    "drd",
    "1.0.0",
    HARNESS_LEVEL_DAEMON,
    HARNESS_PER_DAEMON,
    init,
    fini,
    sizeof kFunctions / sizeof kFunctions[0],
    kFunctions,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void)
{
    return &kDescriptor;
}
