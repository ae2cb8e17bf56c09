// vm/events — the plugin's C surface: init/fini and the PACKED functions of
// the contract (publish, fetch, where) plus the forwarding entries
// (publish_active, fetch_active). The service itself is EventsService.
#include "events_service.hpp"
#include "shared/drd_record_store.hpp"
#include "shared/hlib_forwarder.hpp"
#include "shared/host_plumbing.hpp"
#include "shared/packed_entry.hpp"

#include <cstdio>
#include <memory>

namespace {

using namespace harness;
using namespace harness::vmsvc;

struct Instance {
    Instance(const harness_host_api *host, VmKey key)
        : store(host), members(host), forwarder(std::move(key), ComponentName{"vm", "events"}),
          service(store, members, forwarder, host_logger(host, "vm/events: "))
    {
    }
    DrdRecordStore store;
    HostMemberDirectory members;
    HlibForwarder forwarder;
    EventsService service;
    std::uint64_t hook = 0;
};

int init(const harness_host_api *host, void **state, char *err, size_t errlen) noexcept
{
    auto fail = [&](const Error &e) {
        if (errlen > 0) std::snprintf(err, errlen, "vm/events: %s", e.message.c_str());
        return e.status;
    };
    try {
        if (auto ok = check_host(host, "vm/events"); !ok) return fail(ok.error());
        auto key = vm_key_of(host);
        if (!key) return fail(key.error());
        auto instance = std::make_unique<Instance>(host, std::move(*key));
        auto *service = &instance->service;
        auto hook = MemberHooks::subscribe(host, [service](const std::string &id, bool alive) { service->member_changed(id, alive); });
        if (!hook) return fail(hook.error());
        instance->hook = *hook;
        instance->service.start();
        *state = instance.release();
        return HARNESS_OK;
    } catch (const std::exception &e) {
        return fail(make_error(HARNESS_ERR_INTERNAL, e.what()));
    } catch (...) {
        return fail(make_error(HARNESS_ERR_INTERNAL, "unknown exception"));
    }
}

void fini(void *state)
{
    auto *instance = static_cast<Instance *>(state);
    if (!instance) return;
    MemberHooks::unsubscribe(instance->hook);
    instance->service.stop();
    delete instance;
}

Instance *instance_of(harness_call_ctx *ctx) { return state_of<Instance>(ctx); }

Result<void> no_state() { return make_error(HARNESS_ERR_INTERNAL, "vm/events: no plugin state (init not run?)"); }

Result<void> reply_events(harness_buf *out, const std::vector<Event> &events)
{
    Packer p;
    p.i64(static_cast<std::int64_t>(events.size()));
    for (const auto &e : events) p.i64(e.seq).bytes(e.payload);
    return reply_with(out, p);
}

int publish(harness_call_ctx *ctx, harness_reader *args, harness_buf *out)
{
    return guarded(ctx, [&]() -> Result<void> {
        auto *in = instance_of(ctx);
        if (!in) return no_state();
        std::string topic;
        std::span<const std::uint8_t> payload;
        Unpacker u({args->data, args->len});
        if (!u.str(topic) || !u.bytes(payload) || !u.done()) return bad_arguments("publish", "str topic, bytes payload");
        auto seq = in->service.publish(topic, payload);
        if (!seq) return seq.error();
        Packer p;
        p.i64(*seq);
        return reply_with(out, p);
    });
}

int publish_active(harness_call_ctx *ctx, harness_reader *args, harness_buf *out)
{
    return guarded(ctx, [&]() -> Result<void> {
        auto *in = instance_of(ctx);
        if (!in) return no_state();
        std::string topic, token;
        std::span<const std::uint8_t> payload;
        Unpacker u({args->data, args->len});
        if (!u.str(topic) || !u.bytes(payload) || !u.str(token) || !u.done())
            return bad_arguments("publish_active", "str topic, bytes payload, str token");
        auto seq = in->service.publish_active(topic, payload, token);
        if (!seq) return seq.error();
        Packer p;
        p.i64(*seq);
        return reply_with(out, p);
    });
}

// fetch and fetch_active take the same arguments; only where they run differs.
template <bool Active>
int fetch_entry(harness_call_ctx *ctx, harness_reader *args, harness_buf *out)
{
    return guarded(ctx, [&]() -> Result<void> {
        auto *in = instance_of(ctx);
        if (!in) return no_state();
        std::string topic;
        std::int64_t after_seq = 0, wait_ms = 0, max = 0;
        Unpacker u({args->data, args->len});
        if (!u.str(topic) || !u.i64(after_seq) || !u.i64(wait_ms) || !u.i64(max) || !u.done())
            return bad_arguments(Active ? "fetch_active" : "fetch", "str topic, i64 after_seq, i64 wait_ms, i64 max");
        auto events = Active ? in->service.fetch_active(topic, after_seq, wait_ms, max)
                             : in->service.fetch(topic, after_seq, wait_ms, max);
        if (!events) return events.error();
        return reply_events(out, *events);
    });
}

int where(harness_call_ctx *ctx, harness_reader *args, harness_buf *out)
{
    return guarded(ctx, [&]() -> Result<void> {
        auto *in = instance_of(ctx);
        if (!in) return no_state();
        if (args->len != 0) return bad_arguments("where", "no arguments");
        auto id = in->service.where();
        if (!id) return id.error();
        Packer p;
        p.str(*id);
        return reply_with(out, p);
    });
}

// Everything may wait on consensus or a long poll: thread mode, so the
// daemon's I/O thread never blocks (contract, common rules).
const harness_function kFunctions[] = {
    packed_function("publish", &publish, HARNESS_MODE_THREAD),
    packed_function("fetch", &fetch_entry<false>, HARNESS_MODE_THREAD),
    packed_function("where", &where, HARNESS_MODE_THREAD),
    packed_function("publish_active", &publish_active, HARNESS_MODE_THREAD),
    packed_function("fetch_active", &fetch_entry<true>, HARNESS_MODE_THREAD),
};

const harness_plugin_descriptor kDescriptor = {
    HARNESS_PLUGIN_ABI_MAJOR,
    HARNESS_PLUGIN_ABI_MINOR,
    sizeof(harness_plugin_descriptor),
    "vm",
    "events",
    "1.0.0",
    HARNESS_LEVEL_DAEMON,
    HARNESS_PER_DAEMON,
    &init,
    &fini,
    sizeof kFunctions / sizeof kFunctions[0],
    kFunctions,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const harness_plugin_descriptor *harness_plugin_entry(void)
{
    return &kDescriptor;
}
