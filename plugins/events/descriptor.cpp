// vm/events — the plugin's C surface: the PACKED functions of the contract
// (publish, fetch, where) plus the forwarding entries (publish_active,
// fetch_active). init/fini and `where` come from the kit's ServicePlugin;
// the service itself is EventsService.
#include "events_service.hpp"
#include "vm_service_kit/service_plugin.hpp"

namespace {

using namespace harness;
using namespace harness::vmsvc;

struct Events {
    using Service = EventsService;
    static constexpr const char *component = "events";
    static constexpr const char *label = "vm/events";
};
using Plugin = ServicePlugin<Events>;

Result<void> reply_events(harness_buf *out, const std::vector<Event> &events) {
    Packer p;
    p.i64(static_cast<std::int64_t>(events.size()));
    for (const auto &e : events) p.i64(e.seq).bytes(e.payload);
    return reply_with(out, p);
}

int publish(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    return Plugin::call(ctx, [&](EventsService &service) -> Result<void> {
        std::string topic;
        std::span<const std::uint8_t> payload;
        Unpacker u({args->data, args->len});
        if (!u.str(topic) || !u.bytes(payload) || !u.done())
            return bad_arguments("publish", "str topic, bytes payload");
        auto seq = service.publish(topic, payload);
        if (!seq) return seq.error();
        Packer p;
        p.i64(*seq);
        return reply_with(out, p);
    });
}

int publish_active(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    return Plugin::call(ctx, [&](EventsService &service) -> Result<void> {
        std::string topic, token;
        std::span<const std::uint8_t> payload;
        Unpacker u({args->data, args->len});
        if (!u.str(topic) || !u.bytes(payload) || !u.str(token) || !u.done())
            return bad_arguments("publish_active", "str topic, bytes payload, str token");
        auto seq = service.publish_active(topic, payload, token);
        if (!seq) return seq.error();
        Packer p;
        p.i64(*seq);
        return reply_with(out, p);
    });
}

// fetch and fetch_active take the same arguments; only where they run differs.
template <bool Active>
int fetch_entry(harness_call_ctx *ctx, harness_reader *args, harness_buf *out) {
    return Plugin::call(ctx, [&](EventsService &service) -> Result<void> {
        std::string topic;
        std::int64_t after_seq = 0, wait_ms = 0, max = 0;
        Unpacker u({args->data, args->len});
        if (!u.str(topic) || !u.i64(after_seq) || !u.i64(wait_ms) || !u.i64(max) || !u.done())
            return bad_arguments(Active ? "fetch_active" : "fetch", "str topic, i64 after_seq, i64 wait_ms, i64 max");
        auto events = Active ? service.fetch_active(topic, after_seq, wait_ms, max)
                             : service.fetch(topic, after_seq, wait_ms, max);
        if (!events) return events.error();
        return reply_events(out, *events);
    });
}

// Everything may wait on consensus or a long poll: thread mode, so the
// daemon's I/O thread never blocks (contract, common rules).
constexpr harness_function kFunctions[] = {
    packed_function("publish", &publish, HARNESS_MODE_THREAD),
    packed_function("fetch", &fetch_entry<false>, HARNESS_MODE_THREAD),
    packed_function("where", &Plugin::where, HARNESS_MODE_THREAD),
    packed_function("publish_active", &publish_active, HARNESS_MODE_THREAD),
    packed_function("fetch_active", &fetch_entry<true>, HARNESS_MODE_THREAD),
};

constexpr harness_plugin_descriptor kDescriptor = Plugin::descriptor(kFunctions);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
