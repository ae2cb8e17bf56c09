// A hot standby's wait for its promote (standby.hpp).
//
// Why it cannot miss its promote: vm/events keeps every topic's events
// (the newest 1024 at least, plugins/events/README.md "Retention") and a
// fetch returns them from any sequence number on, so the wait reads job/<J>
// from its very beginning (after seq 0), not from "now". A promote that
// ftmpirun published while this process was still loading, or while it
// waited for its daemon, is in that history and is found by the first
// fetch. Only one thing could lose it: more than 1024 events published on
// the topic between the promote and this process's first fetch (the
// service trims the oldest) — and once it has fetched, a jump in the
// sequence numbers says events were dropped unread, which ends the standby
// rather than leave it waiting for a promote that may be gone.
#include "runtime/standby.hpp"

#include "runtime/daemon_watch.hpp"
#include "runtime/job_topic.hpp"
#include "runtime/log.hpp"

#include <thread>

namespace ftmpi::runtime {

namespace hl = harness::hlib;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace standby_wait {

// A long poll ends this often, so the bounds below are checked in time.
constexpr milliseconds poll_wait{2000};
// A fetch may take its long poll plus a slow daemon's answer.
constexpr milliseconds answer_margin{3000};
constexpr milliseconds connect_timeout{2000};
// Between attempts while the daemon or its events service does not answer.
constexpr milliseconds retry_pause{100};

harness::Error ending(int status, const std::string &why) {
    return harness::make_error(status, why);
}

}  // namespace standby_wait

Standby::Standby(std::string job, int number) : topic_("job/" + std::move(job)), number_(number) {
    connect();
}

bool Standby::connect() {
    hl::ConnectOptions options;
    options.timeout = standby_wait::connect_timeout;
    auto vm = hl::VirtualMachine::connect(options.resolved());
    if (!vm) {
        connect_error_ = vm.error();
        return false;
    }
    vm_ = std::move(*vm);
    return true;
}

harness::Result<ft::Promotion> Standby::wait_for_promotion(const Limits &limits) {
    const auto started = Clock::now();
    const bool bounded = limits.give_up.count() > 0;
    DaemonWatch watch({limits.daemon_lost, limits.daemon_hung}, started);
    if (!vm_) watch.failed(connect_error_);
    int64_t after = 0;     // the last sequence number read
    bool fetched = false;  // a fetch has answered: from then on a jump in seq is a loss
    for (;;) {
        const auto now = Clock::now();
        if (bounded && now - started >= limits.give_up)
            return standby_wait::ending(
                HARNESS_ERR_TIMEOUT, "not promoted within FTMPI_STANDBY_MS=" + std::to_string(limits.give_up.count()));
        if (auto why = watch.lost(now)) return standby_wait::ending(HARNESS_ERR_UNREACHABLE, *why);
        if (!vm_ && !connect()) {
            watch.failed(connect_error_);
            std::this_thread::sleep_for(standby_wait::retry_pause);
            continue;
        }
        milliseconds wait = standby_wait::poll_wait;
        if (bounded) wait = std::min(wait, std::chrono::duration_cast<milliseconds>(limits.give_up - (now - started)));
        auto events = fetch_events(*vm_, topic_, after, wait, Clock::now() + wait + standby_wait::answer_margin);
        if (!events) {
            if (!DaemonWatch::unanswered(events.error())) {
                watch.answered();  // it answered: alive, its service busy
            } else if (DaemonWatch::silent(events.error()) && vm_->local().ping(Clock::now() + milliseconds(1000))) {
                watch.answered();  // a slow long poll on a loaded host, not a lost daemon
                continue;
            } else {
                watch.failed(events.error());
                // A timeout leaves the connection usable; anything else broke it.
                if (!DaemonWatch::silent(events.error())) vm_.reset();
            }
            std::this_thread::sleep_for(standby_wait::retry_pause);
            continue;
        }
        watch.answered();
        for (const TopicEvent &e : *events) {
            if (fetched && e.seq != after + 1)
                return standby_wait::ending(HARNESS_ERR_PROTOCOL,
                                            "events " + std::to_string(after + 1) + ".." + std::to_string(e.seq - 1) +
                                                " of " + topic_ +
                                                " were dropped before it read them (its promote may be among them)");
            fetched = true;
            after = e.seq;
            ft::PromoteMatch m = ft::match_promote(e.payload, number_, limits.world_size);
            if (!m.ignored.empty())
                log::warn("standby %d: ignoring event %lld of %s: %s", number_, static_cast<long long>(e.seq),
                          topic_.c_str(), m.ignored.c_str());
            if (!m.error.empty()) return standby_wait::ending(HARNESS_ERR_INVALID_ARGUMENT, m.error);
            if (m.promotion) return *m.promotion;
        }
        fetched = true;
    }
}

}  // namespace ftmpi::runtime
