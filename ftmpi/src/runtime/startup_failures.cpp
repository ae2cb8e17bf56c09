// Failure notices heard during the wire-up (startup_failures.hpp).
#include "runtime/startup_failures.hpp"

#include "ft/events.hpp"
#include "runtime/log.hpp"
#include "runtime/wireup.hpp"

#include <harness/common/pack.hpp>
#include <harness/hlib/hlib.hpp>

#include <algorithm>
#include <cstdlib>

namespace ftmpi::runtime {

namespace hl = harness::hlib;

namespace {

const harness::ComponentName events_service{"vm", "events"};
constexpr std::int64_t fetch_max = 256;
constexpr std::chrono::milliseconds connect_timeout{3000};
// A fetch may take its long poll plus a slow daemon's answer.
constexpr std::chrono::milliseconds answer_margin{3000};

bool under_vm() {
    const char *hcore = std::getenv("HARNESS_HCORE");
    return hcore != nullptr && *hcore != '\0';
}

}  // namespace

struct StartupFailures::Link {
    hl::VirtualMachine vm;
};

StartupFailures::StartupFailures(const JobInfo &job)
    : topic_("job/" + job.job), self_(job.rank), size_(job.size), usable_(under_vm() && !job.job.empty()) {}

StartupFailures::~StartupFailures() = default;

const std::string *StartupFailures::ended(int rank) const {
    auto it = ended_.find(rank);
    return it == ended_.end() ? nullptr : &it->second;
}

bool StartupFailures::ended_now(int rank, std::string *why) {
    if (!ended(rank) && std::chrono::steady_clock::now() - last_look_ >= wireup_slice)
        look(std::chrono::milliseconds(0));
    const std::string *known = ended(rank);
    if (known && why) *why = *known;
    return known != nullptr;
}

bool StartupFailures::look(std::chrono::milliseconds wait) {
    if (!usable_) return false;
    last_look_ = std::chrono::steady_clock::now();
    auto give_up = [&](const std::string &why) {
        log::info("wire-up: not watching for ranks that end during start-up (%s)", why.c_str());
        usable_ = false;
        link_.reset();
        return false;
    };
    if (!link_) {
        hl::ConnectOptions options;
        options.timeout = connect_timeout;
        auto vm = hl::VirtualMachine::connect(options.resolved());
        if (!vm) return give_up("the local daemon does not answer: " + vm.error().describe());
        link_ = std::make_unique<Link>(Link{std::move(*vm)});
    }
    harness::Packer args;
    args.str(topic_).i64(after_).i64(std::max<std::int64_t>(wait.count(), 0)).i64(fetch_max);
    auto reply = link_->vm.local().call(events_service, "fetch", args.view(), HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT,
                                        hl::deadline_in(wait + answer_margin));
    if (!reply) return give_up("vm/events fetch " + topic_ + ": " + reply.error().describe());
    harness::Unpacker in(*reply);
    std::int64_t n = 0;
    if (!in.i64(n) || n < 0) return give_up("malformed vm/events fetch reply");
    bool learned = false;
    for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t seq = 0;
        harness::Bytes payload;
        if (!in.i64(seq) || !in.bytes(payload)) return give_up("malformed vm/events fetch reply");
        after_ = std::max(after_, seq);
        auto f = ft::decode_failure(payload);
        // The job's first processes only: a replacement does not wait in
        // this wire-up, and no rank ends normally before every rank is up.
        if (!f || f->incarnation != 0 || f->rank == self_ || f->rank < 0 || f->rank >= size_) continue;
        if (ended_.emplace(f->rank, f->why).second) {
            log::info("wire-up: rank %d %s during start-up", f->rank, f->why.c_str());
            learned = true;
        }
    }
    return learned;
}

}  // namespace ftmpi::runtime
