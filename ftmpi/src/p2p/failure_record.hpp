// What the engine knows of failed processes: which peers are failed or only
// suspected (a connection broke, the VM has not confirmed), the failures
// other threads reported for the poller to apply, and the reports ftstate
// has yet to hear, in the order the engine declared them. The injected queue
// has its own lock (any thread adds to it); the rest is guarded by the
// engine's lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace ftmpi::p2p {

class FailureRecord {
public:
    struct Report {
        int world;
        bool suspicion;  // ft::suspect, else ft::on_failure
        std::string why;
    };

    void reset(int peers);
    void grow(int peers);  // room for world ranks MPI_Comm_spawn added
    bool failed(int world) const { return failed_[world] != 0; }
    bool suspected(int world) const { return suspected_[world] != 0; }
    // Declares `world` failed and queues its report.
    void mark_failed(int world, std::string why);
    // Marks `world` suspected; queues the suspicion once.
    void mark_suspected(int world);
    // Known failed before this process joined (a REBUILD replacement's
    // wire-up): failed, without a report of its own.
    void mark_failed_at_start(int world) { failed_[world] = 1; }
    // A new incarnation of `world`: neither failed nor suspected.
    void renew(int world);

    // Any thread: a failure for the poller to apply before its next frame.
    void inject(int world);
    bool has_injected() const { return injected_pending_.load(std::memory_order_acquire); }
    std::vector<int> take_injected();

    // Reports are held until ftstate is ready for them (open()).
    void open() { open_ = true; }
    bool is_open() const { return open_; }
    bool has_reports() const { return !reports_.empty(); }
    // The queued reports, if they may go now and nobody else is sending them;
    // then end_reporting() when done.
    bool begin_reporting();
    std::vector<Report> take_reports();
    void end_reporting() { reporting_ = false; }
    void count_reported() { reported_epoch_.fetch_add(1, std::memory_order_acq_rel); }

    // Failures declared so far, and those ftstate has heard of.
    uint64_t failure_epoch() const { return failure_epoch_.load(std::memory_order_acquire); }
    uint64_t reported_epoch() const { return reported_epoch_.load(std::memory_order_acquire); }

private:
    std::vector<char> failed_, suspected_;
    std::vector<Report> reports_;
    bool open_ = false;
    bool reporting_ = false;  // one thread reports at a time, in order
    std::atomic<uint64_t> failure_epoch_{0}, reported_epoch_{0};
    std::mutex inject_mu_;  // guards injected_ (taken without the engine's lock or inside it, never the reverse)
    std::vector<int> injected_;
    std::atomic<bool> injected_pending_{false};
};

}  // namespace ftmpi::p2p
