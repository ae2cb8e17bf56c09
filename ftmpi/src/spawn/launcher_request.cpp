// The request for new processes through the VM's events (launcher_request.hpp).
#include "spawn/launcher_request.hpp"

#include "internal/runtime.hpp"
#include "runtime/job_topic.hpp"
#include "settings/values.hpp"

#include <harness/common/pack.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>

namespace ftmpi::spawn {
namespace {

namespace hl = harness::hlib;
using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds poll{500};

std::vector<uint8_t> encode(const std::string &id, const std::vector<App> &apps, int leader_world, int lowest_base) {
    harness::Packer p;
    p.str("spawn").str(id).i32(leader_world).i32(static_cast<int32_t>(apps.size()));
    for (const App &a : apps) {
        p.str(a.command).i32(static_cast<int32_t>(a.argv.size()));
        for (const auto &arg : a.argv) p.str(arg);
        p.i32(a.count).str(a.host).str(a.wdir);
    }
    p.i32(lowest_base);  // a later field: a launcher that does not read it ignores it
    return p.take();
}

// The answer to request `id` in one event, if it is one.
enum class Answer { none, started, refused };
Answer decode(const std::vector<uint8_t> &payload, const std::string &id, Started *out, std::string *why) {
    harness::Unpacker u(payload);
    std::string kind, got;
    if (!u.str(kind) || (kind != "spawned" && kind != "spawn_failed") || !u.str(got) || got != id) return Answer::none;
    if (kind == "spawn_failed") {
        if (!u.str(*why)) *why = "the launcher refused it";
        return Answer::refused;
    }
    int32_t spawn_id = 0, base = 0, count = 0;
    if (!u.i32(spawn_id) || !u.i32(base) || !u.i32(count)) {
        *why = "a malformed answer from the launcher";
        return Answer::refused;
    }
    *out = {spawn_id, base, count};
    return Answer::started;
}

}  // namespace

std::string request_spawn(const std::vector<App> &apps, int leader_world, int lowest_base,
                          std::chrono::milliseconds timeout, Started *out) {
    const auto &env = settings::current();
    if (!env.is_set(settings::Id::job) || std::getenv("HARNESS_HCORE") == nullptr)
        return "this job was not started by ftmpirun through a VM, which is what starts new processes";
    const std::string topic = "job/" + env.text(settings::Id::job);
    static std::atomic<int> requests{0};
    const std::string id = std::to_string(runtime::world_rank()) + "." + std::to_string(++requests);
    const auto deadline = Clock::now() + timeout;

    hl::ConnectOptions options;
    options.timeout = std::chrono::milliseconds(5000);
    auto vm = hl::VirtualMachine::connect(options.resolved());
    if (!vm) return "cannot reach this host's daemon: " + vm.error().describe();
    auto published = runtime::publish_event(*vm, topic, encode(id, apps, leader_world, lowest_base),
                                            Clock::now() + std::chrono::seconds(5));
    if (!published) return "cannot publish the request on " + topic + ": " + published.error().describe();

    int64_t after = *published;  // the answer comes after the request
    while (Clock::now() < deadline) {
        auto events = runtime::fetch_events(*vm, topic, after, poll, Clock::now() + poll + std::chrono::seconds(5));
        if (!events) return "cannot read " + topic + ": " + events.error().describe();
        for (const runtime::TopicEvent &e : *events) {
            after = std::max(after, e.seq);
            std::string why;
            switch (decode(e.payload, id, out, &why)) {
            case Answer::none: break;
            case Answer::started: return {};
            case Answer::refused: return why;
            }
        }
    }
    return "the launcher did not answer within " + std::to_string(timeout.count()) + " ms";
}

}  // namespace ftmpi::spawn
