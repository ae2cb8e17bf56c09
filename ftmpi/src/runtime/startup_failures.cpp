// Failure notices heard during the wire-up (startup_failures.hpp).
#include "runtime/startup_failures.hpp"

#include "ft/events.hpp"
#include "runtime/job_topic.hpp"
#include "runtime/log.hpp"
#include "runtime/wireup.hpp"

#include <harness/common/pack.hpp>
#include <harness/hlib/hlib.hpp>

#include <algorithm>
#include <cstdlib>

namespace ftmpi::runtime {

namespace hl = harness::hlib;

namespace {

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
    auto events = fetch_events(link_->vm, topic_, after_, wait, hl::deadline_in(wait + answer_margin));
    if (!events) return give_up("vm/events fetch " + topic_ + ": " + events.error().describe());
    bool learned = false;
    for (const TopicEvent &e : *events) {
        after_ = std::max(after_, e.seq);
        auto f = ft::decode_failure(e.payload);
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
