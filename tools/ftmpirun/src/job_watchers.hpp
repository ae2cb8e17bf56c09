// job_watchers.hpp — the job's background readers of the VM: the member list
// (a daemon declared failed loses its ranks) and the job topic (fence and
// respawn requests from the ranks). Both post to the controller's Inbox and
// end when their StopFlag is set.
#pragma once

#include "job.hpp"
#include "job_io.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace harness::ftmpirun {

// Background readers that end when told to: a wait that a stop cuts short.
class StopFlag {
public:
    void set() {
        std::lock_guard lock(mutex_);
        stop_ = true;
        cv_.notify_all();
    }
    bool wait_for(std::chrono::milliseconds d)  // true once stopped
    {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, d, [&] { return stop_; });
    }
    bool stopped() {
        std::lock_guard lock(mutex_);
        return stop_;
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stop_ = false;
};

// Reports each daemon the VM declares failed (once; the controller dedups).
void watch_members(const JobSpec &spec, Inbox &inbox, StopFlag &stop);
// Passes the ranks' fence, respawn and spawn requests on job/<J> to the
// controller.
void read_job_topic(const JobSpec &spec, Inbox &inbox, Printer &printer, StopFlag &stop);

}  // namespace harness::ftmpirun
