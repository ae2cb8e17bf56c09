// The notifier (notifier.hpp): fetch loop, failure events,
// suspicions and their deadline, own-daemon watch, publish and wait_event.
//
// Threads: the notifier thread owns its daemon connection; publish() uses a
// second connection under its own mutex (hlib connections are used by one
// thread at a time). p2p is never called with a lock of this file held:
// notify_failed may call on_failure, which calls forget_suspicion.
#include "ft/notifier.hpp"

#include "ft/events.hpp"
#include "ft/failure_list.hpp"
#include "ft/settings.hpp"

#include "internal/p2p.hpp"
#include "internal/runtime.hpp"
#include "runtime/daemon_watch.hpp"
#include "runtime/job_topic.hpp"
#include "runtime/log.hpp"

#include <harness/hlib/hlib.hpp>

#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include <sys/socket.h>

namespace ftmpi::ft {
namespace {

namespace hl = harness::hlib;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr int64_t poll_wait_ms = 500;  // a long poll ends this often, so stop() is quick

harness::Result<hl::VirtualMachine> connect_daemon(milliseconds timeout) {
    hl::ConnectOptions options;
    options.timeout = timeout;
    return hl::VirtualMachine::connect(options.resolved());
}

class Notifier {
public:
    // A daemon connection start() uses instead of making one.
    void adopt(hl::VirtualMachine vm) { adopted_ = std::move(vm); }
    bool start();
    void stop();
    bool running() const { return running_.load(std::memory_order_acquire); }
    void suspect(int world);
    void forget(int world);
    bool joining(int world);
    bool suspected(int world) {
        std::lock_guard lock(mu_);
        return suspects_.count(world) != 0;
    }
    bool publish(const std::vector<uint8_t> &payload);
    bool wait_event(const std::string &kind, const std::function<bool(const std::vector<uint8_t> &)> &match,
                    int deadline_ms);

private:
    harness::Result<std::vector<runtime::TopicEvent>> fetch(int64_t wait_ms, Clock::time_point deadline);
    // Stores a fetched batch (and acts on its failure events when `act`).
    void take_batch(std::vector<runtime::TopicEvent> fetched, bool act);
    void act_on(const Event &e);
    void declare(int world, const std::string &why);
    void loop();
    void check_deadlines();
    [[noreturn]] void leave_job(const std::string &why);
    [[noreturn]] void fenced(const std::string &why);
    void timer_loop();

    std::string topic_;
    std::optional<hl::VirtualMachine> vm_;  // the thread's connection
    // stop() shuts the thread's connection down so a long poll in progress
    // ends at once (MPI_Finalize does not wait for it); vm_ is replaced
    // only under this mutex once the thread runs.
    std::mutex connection_mu_;
    void set_connection(std::optional<hl::VirtualMachine> vm) {
        std::lock_guard lock(connection_mu_);
        vm_ = std::move(vm);
    }
    int64_t after_ = 0;  // last sequence number fetched
    std::thread thread_, timer_;
    std::atomic<bool> running_{false}, stop_{false};

    std::mutex mu_;  // events_, suspects_, fenced_
    std::condition_variable changed_;
    std::vector<Event> events_;
    std::map<int, Clock::time_point> suspects_;  // world -> confirmation deadline
    std::map<int, int> fenced_;                  // world -> incarnation we published a fence for

    std::mutex publish_mu_;
    std::optional<hl::VirtualMachine> publish_vm_;

    std::optional<hl::VirtualMachine> adopted_;  // adopt()'s, until start()
};

Notifier &notifier() {
    static auto *n = new Notifier;  // the thread is joined in finalize; never destroyed
    return *n;
}

bool verbose() {
    return settings().verbose;
}

harness::Result<std::vector<runtime::TopicEvent>> Notifier::fetch(int64_t wait_ms, Clock::time_point deadline) {
    return runtime::fetch_events(*vm_, topic_, after_, milliseconds(wait_ms), deadline);
}

void Notifier::take_batch(std::vector<runtime::TopicEvent> fetched, bool act) {
    std::vector<Event> batch;
    for (auto &f : fetched) {
        Event e;
        e.seq = f.seq;
        e.payload = std::move(f.payload);
        e.kind = kind_of(e.payload);
        if (e.seq > after_) after_ = e.seq;
        batch.push_back(std::move(e));
    }
    {
        std::lock_guard lock(mu_);
        events_.insert(events_.end(), batch.begin(), batch.end());
    }
    changed_.notify_all();
    // In topic order, so with the ordered notifier every process applies
    // the failures in the same order.
    if (act)
        for (const Event &e : batch) act_on(e);
}

void Notifier::act_on(const Event &e) {
    auto f = decode_failure(e.payload);
    if (!f) return;
    const int me = runtime::world_rank();
    const int known = incarnation(f->rank);
    if (f->incarnation < known) return;  // an older incarnation: already handled
    if (f->rank == me) {
        if (e.kind == "rank_lost") leave_job(f->why);
        if (e.kind == "fence") fenced(f->why);
        return;
    }
    if (f->normal_exit) {
        // Exit status 0: a failure only if it had not finalized, i.e. its
        // connection broke without bye (a suspicion). An exit after bye is
        // the normal end; suspect() looks back at this event if the broken
        // connection is noticed later.
        bool suspected;
        {
            std::lock_guard lock(mu_);
            suspected = suspects_.count(f->rank) != 0;
        }
        if (!suspected) return;
    }
    declare(f->rank, f->why);
}

void Notifier::declare(int world, const std::string &why) {
    if (failure_index(world) >= 0) return;  // already in the list
    if (verbose()) log::info("notifier: world rank %d failed: %s", world, why.c_str());
    remember_why(world, why);
    forget(world);
    p2p::notify_failed(world);
}

void Notifier::leave_job(const std::string &why) {
    log::error("%s; leaving the job (exit status 1)", why.c_str());
    std::fflush(nullptr);
    std::_Exit(1);
}

// Fenced: the job has declared this process failed and ftmpirun is
// killing it. It ends the way ftmpirun expects a fenced rank to end (by
// SIGKILL), not with a status of its own, which ftmpirun's policy would
// take for a rank failing by itself and abort the job.
void Notifier::fenced(const std::string &why) {
    log::error("fenced by the job (%s); ending now", why.c_str());
    std::fflush(nullptr);
    std::raise(SIGKILL);
    std::_Exit(1);
}

// The suspicion deadlines run on a thread of their own, so a slow daemon
// answer on the fetch thread never delays a declaration.
void Notifier::timer_loop() {
    std::unique_lock lock(mu_);
    while (!stop_.load()) {
        auto next = Clock::now() + std::chrono::hours(1);
        for (const auto &[world, deadline] : suspects_)
            if (!fenced_.count(world) && deadline < next) next = deadline;
        changed_.wait_until(lock, next);
        if (stop_.load()) break;
        lock.unlock();
        check_deadlines();
        lock.lock();
    }
}

void Notifier::check_deadlines() {
    std::vector<int> due;
    const auto now = Clock::now();
    {
        std::lock_guard lock(mu_);
        for (const auto &[world, deadline] : suspects_)
            if (deadline <= now && !fenced_.count(world)) due.push_back(world);
        for (int w : due) fenced_[w] = incarnation(w);
    }
    const std::string why = "connection lost (unconfirmed)";
    for (int world : due) {
        if (verbose())
            log::info("notifier: no event confirmed the loss of world rank %d in %d ms%s", world, settings().confirm_ms,
                      settings().ordered ? "; fencing it and waiting for the event" : "; declaring it failed");
        if (!publish(encode_fence(world, incarnation(world), runtime::world_rank(), why)) && verbose())
            log::info("notifier: could not publish the fence of world rank %d", world);
        // Ordered: the fence comes back through the topic and is applied
        // in its place in the order, like every other failure.
        if (!settings().ordered) declare(world, why);
    }
}

// Fetches the job's events until stop(). A call the daemon does not answer
// is told to the watch (runtime/daemon_watch.hpp), which says when the
// daemon counts as lost: soon after it closed the connection or refuses
// connects (killed), only after a long silence while the connection stays
// open (a starved daemon must not end the job).
void Notifier::loop() {
    runtime::DaemonWatch watch({milliseconds(settings().daemon_lost_ms), milliseconds(settings().daemon_hung_ms)});
    bool reported_error = false;
    auto give_up_if_lost = [&] {
        if (auto why = watch.lost()) leave_job(*why);
    };
    while (!stop_.load()) {
        if (!vm_) {
            auto vm = connect_daemon(milliseconds(1000));
            if (!vm) {
                watch.failed(vm.error());
                give_up_if_lost();
                std::unique_lock lock(mu_);
                changed_.wait_for(lock, milliseconds(100), [&] { return stop_.load(); });
                continue;
            }
            set_connection(std::move(*vm));
        }
        const auto wait = milliseconds(poll_wait_ms);
        // The call may take the long poll plus a slow daemon's answer, but
        // not much past the point where a silent daemon counts as lost.
        auto deadline = Clock::now() + wait + milliseconds(2000);
        deadline = std::min(deadline, std::max(watch.silent_until(), Clock::now() + wait + milliseconds(100)));
        auto reply = fetch(wait.count(), deadline);
        if (stop_.load()) break;
        if (reply) {
            watch.answered();
            reported_error = false;
            take_batch(std::move(*reply), true);
            continue;
        }
        if (runtime::DaemonWatch::unanswered(reply.error())) {
            // A timed-out long poll on a loaded host is not a lost daemon:
            // ask it directly before counting the silence.
            if (runtime::DaemonWatch::silent(reply.error()) && vm_->local().ping(Clock::now() + milliseconds(1000))) {
                watch.answered();
                continue;
            }
            watch.failed(reply.error());
            // A timeout leaves the connection usable (a late reply is
            // dropped): keep it, so a stopped or starved daemon is not
            // also sent a new connection every second. Anything else broke it.
            if (!runtime::DaemonWatch::silent(reply.error())) set_connection(std::nullopt);
            give_up_if_lost();
            continue;
        }
        // The daemon answered with an error (e.g. the events service is
        // failing over): it is alive; retry shortly.
        watch.answered();
        if (!reported_error && verbose())
            log::info("notifier: fetch %s: %s", topic_.c_str(), reply.error().describe().c_str());
        reported_error = true;
        std::unique_lock lock(mu_);
        changed_.wait_for(lock, milliseconds(200), [&] { return stop_.load(); });
    }
}

bool Notifier::start() {
    const Settings &s = settings();
    auto skip = [&](const std::string &why) {
        if (s.verbose) log::info("no failure notifier (%s): a broken connection is a failure at once", why.c_str());
        return false;
    };
    if (s.comm_mode == FTMPI_COMM_MODE_ABORT) return skip("comm mode abort");
    if (s.job.empty() || !s.have_daemon) return skip("not launched through a VM");
    vm_ = std::exchange(adopted_, std::nullopt);
    if (!vm_) {
        auto vm = connect_daemon(milliseconds(3000));
        if (!vm) return skip("the local daemon does not answer: " + vm.error().describe());
        vm_ = std::move(*vm);
    }
    topic_ = "job/" + s.job;
    after_ = 0;
    // One quick fetch decides whether the events service is there; it also
    // catches up on what happened before this process started (a
    // replacement only stores those: the recovery tells it the state).
    auto reply = fetch(0, Clock::now() + milliseconds(5000));
    if (!reply) {
        vm_.reset();
        return skip("vm/events fetch " + topic_ + ": " + reply.error().describe());
    }
    take_batch(std::move(*reply), !s.restarted);
    stop_ = false;
    running_ = true;
    thread_ = std::thread([this] { loop(); });
    timer_ = std::thread([this] { timer_loop(); });
    if (s.verbose)
        log::info("failure notifier on %s (confirm %d ms, %s)", topic_.c_str(), s.confirm_ms,
                  s.ordered ? "ordered" : "unordered");
    return true;
}

void Notifier::stop() {
    if (!running_.load()) return;
    {
        std::lock_guard lock(mu_);  // the timer checks stop_ under it: no lost wake-up
        stop_ = true;
    }
    changed_.notify_all();
    {
        std::lock_guard lock(connection_mu_);
        if (vm_) ::shutdown(vm_->local().connection().fd(), SHUT_RDWR);
    }
    if (thread_.joinable()) thread_.join();
    if (timer_.joinable()) timer_.join();
    running_ = false;
    changed_.notify_all();
    vm_.reset();
    std::lock_guard lock(publish_mu_);
    publish_vm_.reset();
}

void Notifier::suspect(int world) {
    bool confirmed_already = false;
    std::string why;
    {
        std::lock_guard lock(mu_);
        if (suspects_.count(world)) return;
        // An event may have come before the broken connection was noticed.
        const int known = incarnation(world);
        for (const Event &e : events_) {
            auto f = decode_failure(e.payload);
            if (f && f->rank == world && f->incarnation >= known) {
                confirmed_already = true;
                why = f->why;
            }
        }
        if (!confirmed_already) suspects_[world] = Clock::now() + milliseconds(settings().confirm_ms);
    }
    if (confirmed_already) {
        declare(world, why);
        return;
    }
    if (verbose()) log::info("world rank %d suspected (connection broke without bye)", world);
    changed_.notify_all();
}

bool Notifier::joining(int world) {
    const int known_round = round();
    std::lock_guard lock(mu_);
    bool requested = false;
    for (const Event &e : events_) {
        int r = 0, rank = -1;
        std::vector<int> ranks;
        if (e.kind == "respawn" && decode_respawn(e.payload, &r, &ranks) && r > known_round &&
            std::find(ranks.begin(), ranks.end(), world) != ranks.end())
            requested = true;
        else if (e.kind == "respawn_failed" && decode_respawn_failed(e.payload, &r, &rank) && r > known_round &&
                 rank == world)
            requested = false;
    }
    return requested;
}

void Notifier::forget(int world) {
    std::lock_guard lock(mu_);
    suspects_.erase(world);
    fenced_.erase(world);
}

bool Notifier::publish(const std::vector<uint8_t> &payload) {
    const Settings &s = settings();
    if (s.job.empty() || !s.have_daemon) return false;
    std::lock_guard lock(publish_mu_);
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!publish_vm_) {
            auto vm = connect_daemon(milliseconds(2000));
            if (!vm) return false;
            publish_vm_ = std::move(*vm);
        }
        auto reply = runtime::publish_event(*publish_vm_, "job/" + s.job, payload, Clock::now() + milliseconds(5000));
        if (reply) return true;
        if (verbose()) log::info("publish on job/%s: %s", s.job.c_str(), reply.error().describe().c_str());
        publish_vm_.reset();
    }
    return false;
}

bool Notifier::wait_event(const std::string &kind, const std::function<bool(const std::vector<uint8_t> &)> &match,
                          int deadline_ms) {
    const auto deadline = Clock::now() + milliseconds(std::max(deadline_ms, 0));
    std::unique_lock lock(mu_);
    size_t checked = 0;
    for (;;) {
        for (; checked < events_.size(); ++checked)
            if (events_[checked].kind == kind && match(events_[checked].payload)) return true;
        if (!running() || Clock::now() >= deadline) return false;
        changed_.wait_until(lock, deadline);
    }
}

}  // namespace

void adopt_daemon_connection(std::optional<hl::VirtualMachine> vm) {
    if (vm) notifier().adopt(std::move(*vm));
}

bool start_notifier() {
    return notifier().start();
}
void stop_notifier() {
    notifier().stop();
}
void forget_suspicion(int world) {
    notifier().forget(world);
}
bool is_suspected(int world) {
    return notifier().suspected(world);
}
bool is_joining(int world) {
    return notifier().joining(world);
}

bool confirm() {
    return notifier().running() && !abort_mode();
}

void suspect(int world) {
    if (!notifier().running()) {
        p2p::notify_failed(world);  // nobody could confirm it
        return;
    }
    notifier().suspect(world);
}

bool publish(const std::vector<uint8_t> &payload) {
    return notifier().publish(payload);
}

bool wait_event(const std::string &kind, const std::function<bool(const std::vector<uint8_t> &)> &match,
                int deadline_ms) {
    return notifier().wait_event(kind, match, deadline_ms);
}

}  // namespace ftmpi::ft
