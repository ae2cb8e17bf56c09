// The reporter (reporter.hpp): one thread per rank that publishes the rank
// record (snapshot.hpp) to the DRD after a change.
//
// Changes are coalesced: the hooks set a flag and wake the thread, and the
// thread publishes the newest snapshot, at most one put every
// `min_interval`, so a program that makes thousands of communicators costs
// a handful of writes. A put that fails (daemon gone, DRD without a leader)
// is retried after a pause with the then newest snapshot; while the VM does
// not answer, changes are only noted. A daemon without vm/drd disables the
// reporter for good. The thread has its own connection, so it never
// contends with the notifier's long poll or the wire-up.
#include "cominfo/reporter.hpp"

#include "cominfo/journal.hpp"
#include "cominfo/snapshot.hpp"
#include "ft/settings.hpp"
#include "internal/cominfo.hpp"
#include "internal/runtime.hpp"
#include "runtime/log.hpp"

#include <harness/common/pack.hpp>
#include <harness/hlib/hlib.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

#include <sys/socket.h>
#include <unistd.h>

namespace ftmpi::cominfo {
namespace {

namespace hl = harness::hlib;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

const harness::ComponentName drd_service{"vm", "drd"};
constexpr milliseconds min_interval{100};    // between two puts
constexpr milliseconds retry_pause{1000};    // after a put that failed
constexpr milliseconds put_timeout{3000};    // one put
constexpr milliseconds final_deadline{800};  // how long MPI_Finalize waits for the last record

class Reporter {
public:
    void start(Identity id);
    void stop();
    // At exit() without MPI_Finalize: end the thread without a last record,
    // before the statics it uses are destroyed.
    void abandon();
    bool running() const { return running_.load(std::memory_order_acquire); }
    void poke();

private:
    void loop();
    // Ends the thread at once and joins it.
    void end_thread();
    // One put of the newest record; false when it did not get through.
    bool publish();

    Identity id_;
    std::string key_;
    std::thread thread_;
    std::atomic<bool> running_{false};

    std::mutex mu_;  // the fields below
    std::condition_variable cv_;
    bool dirty_ = false, stopping_ = false, finalized_ = false;
    int64_t wanted_ = 0;     // updates asked for (each poke)
    int64_t published_ = 0;  // the update the last successful put carried

    std::mutex connection_mu_;  // vm_ is replaced only under it: stop() shuts its socket down
    std::optional<hl::VirtualMachine> vm_;
};

Reporter &reporter() {
    static auto *r = new Reporter;  // the thread is joined in stop(); never destroyed
    return *r;
}

void Reporter::start(Identity id) {
    id_ = std::move(id);
    key_ = "ftmpi/" + id_.job + "/cominfo/" + std::to_string(id_.rank);
    {
        std::lock_guard lock(mu_);
        dirty_ = true;  // the first record: this rank started
        stopping_ = finalized_ = false;
        wanted_ = 1;
        published_ = 0;
    }
    running_.store(true, std::memory_order_release);
    thread_ = std::thread([this] { loop(); });
    // Registered after the statics the thread uses were made, so it runs
    // before they are destroyed.
    static std::once_flag at_exit;
    std::call_once(at_exit, [] { std::atexit([] { reporter().abandon(); }); });
}

void Reporter::poke() {
    {
        std::lock_guard lock(mu_);
        if (stopping_) return;
        dirty_ = true;
        ++wanted_;
    }
    cv_.notify_one();
}

bool Reporter::publish() {
    int64_t update;
    bool finalized;
    {
        std::lock_guard lock(mu_);
        dirty_ = false;
        update = wanted_;
        finalized = finalized_;
    }
    // The last record gets only what MPI_Finalize waits for; a wedged
    // daemon must not hold the program's exit up.
    const auto deadline = Clock::now() + (finalized ? final_deadline : put_timeout);
    const std::string record = snapshot(id_, update, finalized).dump();
    if (!vm_) {
        hl::ConnectOptions options;
        options.timeout = std::max(milliseconds(1), std::chrono::duration_cast<milliseconds>(deadline - Clock::now()));
        auto vm = hl::VirtualMachine::connect(options.resolved());
        if (!vm) return false;
        {
            std::lock_guard lock(connection_mu_);
            vm_ = std::move(*vm);
        }
        // stop() sets stopping_ before it shuts vm_'s socket down: a
        // connection made after that is not used.
        std::lock_guard lock(mu_);
        if (stopping_ && !finalized_) return false;
    }
    harness::Packer args;
    args.str(key_).bytes({reinterpret_cast<const uint8_t *>(record.data()), record.size()}).str("voters");
    auto reply =
        vm_->local().call(drd_service, "put", args.view(), HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline);
    if (!reply) {
        if (reply.error().status == HARNESS_ERR_NOT_FOUND) {
            // No vm/drd on the local daemon: nobody can read the records.
            if (ft::settings().verbose) log::info("cominfo: not reporting (%s)", reply.error().describe().c_str());
            std::lock_guard lock(mu_);
            stopping_ = true;
            return false;
        }
        std::lock_guard lock(connection_mu_);
        vm_.reset();
        return false;
    }
    std::lock_guard lock(mu_);
    if (update > published_) published_ = update;
    return true;
}

void Reporter::loop() {
    std::unique_lock lock(mu_);
    for (;;) {
        cv_.wait(lock, [&] { return dirty_ || stopping_; });
        if (stopping_ && !finalized_) break;  // stop() gave up on the last record
        if (!dirty_) break;                   // stopping, and the last record is out
        lock.unlock();
        const bool ok = publish();
        lock.lock();
        if (!ok && !stopping_) dirty_ = true;  // retried after the pause with the newest snapshot
        cv_.notify_all();                      // stop() waits for published_
        if (stopping_ && (!ok || published_ >= wanted_)) break;
        // Changes during the pause are coalesced into the next put; a stop
        // ends the pause at once.
        cv_.wait_for(lock, ok ? min_interval : retry_pause, [&] { return stopping_; });
    }
    running_.store(false, std::memory_order_release);
    cv_.notify_all();
}

void Reporter::stop() {
    if (!thread_.joinable()) return;
    {
        // The last record says this rank finalized; wait a moment for it.
        std::unique_lock lock(mu_);
        if (!stopping_) {
            finalized_ = true;
            stopping_ = true;
            dirty_ = true;
            ++wanted_;
            cv_.notify_all();
            const int64_t last = wanted_;
            cv_.wait_for(lock, final_deadline, [&] { return published_ >= last || !running(); });
        }
    }
    end_thread();
}

void Reporter::abandon() {
    if (thread_.joinable()) end_thread();  // else MPI_Finalize stopped it
}

void Reporter::end_thread() {
    {
        std::lock_guard lock(mu_);
        finalized_ = false;  // from here the thread only ends
        stopping_ = true;
    }
    cv_.notify_all();
    {
        std::lock_guard lock(connection_mu_);
        if (vm_) ::shutdown(vm_->local().connection().fd(), SHUT_RDWR);  // a put in progress ends now
    }
    thread_.join();
    std::lock_guard lock(connection_mu_);
    vm_.reset();
}

std::string host_name() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "";
    return buf;
}

}  // namespace

bool active() {
    return reporter().running();
}

void poke() {
    if (reporter().running()) reporter().poke();
}

void start() {
    const ft::Settings &s = ft::settings();
    if (!s.cominfo || s.job.empty() || !s.have_daemon) return;
    Identity id;
    id.job = s.job;
    id.rank = runtime::world_rank();
    id.incarnation = s.incarnation;
    id.world_size = runtime::world_size();
    id.pid = static_cast<long>(::getpid());
    if (const char *m = std::getenv("HARNESS_MEMBER")) id.member = m;
    id.host = host_name();
    id.started_ms = wall_ms();
    reporter().start(std::move(id));
}

void stop() {
    reporter().stop();
}

}  // namespace ftmpi::cominfo
