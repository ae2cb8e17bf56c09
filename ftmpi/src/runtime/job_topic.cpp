// The job's events topic (job_topic.hpp).
#include "runtime/job_topic.hpp"

#include <algorithm>

namespace ftmpi::runtime {

namespace {
const harness::ComponentName events_service{"vm", "events"};
constexpr int64_t fetch_max = 256;
}  // namespace

harness::Result<std::vector<TopicEvent>> fetch_events(harness::hlib::VirtualMachine &vm, const std::string &topic,
                                                      int64_t after, std::chrono::milliseconds wait,
                                                      std::chrono::steady_clock::time_point deadline) {
    harness::Packer args;
    args.str(topic).i64(after).i64(std::max<int64_t>(wait.count(), 0)).i64(fetch_max);
    auto reply =
        vm.local().call(events_service, "fetch", args.view(), HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline);
    if (!reply) return reply.error();
    const auto malformed =
        harness::make_error(HARNESS_ERR_PLUGIN_FAILED, "malformed vm/events fetch reply on " + topic);
    harness::Unpacker in(*reply);
    int64_t n = 0;
    if (!in.i64(n) || n < 0) return malformed;
    std::vector<TopicEvent> events;
    for (int64_t i = 0; i < n; ++i) {
        TopicEvent e;
        if (!in.i64(e.seq) || !in.bytes(e.payload)) return malformed;
        events.push_back(std::move(e));
    }
    return events;
}

harness::Result<int64_t> publish_event(harness::hlib::VirtualMachine &vm, const std::string &topic,
                                       const std::vector<uint8_t> &payload,
                                       std::chrono::steady_clock::time_point deadline) {
    harness::Packer args;
    args.str(topic).bytes(payload);
    auto reply =
        vm.local().call(events_service, "publish", args.view(), HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline);
    if (!reply) return reply.error();
    harness::Unpacker in(*reply);
    int64_t seq = 0;
    if (!in.i64(seq)) return harness::make_error(HARNESS_ERR_PLUGIN_FAILED, "malformed vm/events publish reply");
    return seq;
}

}  // namespace ftmpi::runtime
