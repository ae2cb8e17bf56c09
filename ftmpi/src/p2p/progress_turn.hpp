// Whose turn it is to make progress. At most one thread polls the drivers at
// a time (the poller): a user thread waiting in MPI, or the progress thread
// when no user thread has been in MPI for a moment. Other waiting threads
// are followers: they sleep on followers_cv until the poller completes
// something. Guarded by the engine's lock, except park()/unpark(), which
// have their own.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace ftmpi::p2p {

struct ProgressTurn {
    bool polling = false;          // a thread is in the engine's poll step
    bool blocked = false;          // ... and blocks in the drivers' wait
    bool progress_thread = false;  // ... and it is the progress thread
    std::thread::id poller;
    int followers = 0;     // threads sleeping on followers_cv
    int user_waiting = 0;  // user threads inside a blocking wait
    // When the progress thread last saw user_activity change.
    std::chrono::steady_clock::time_point last_user_exit{};
    // Bumped by user threads when they start an operation, leave a wait or
    // poll; a change keeps the progress thread parked. A counter instead of
    // a clock read: a blocking receive's exit is on the message's critical
    // path, and a clock read here costs a fifth of a 0-byte one-way latency.
    uint64_t user_activity = 0;
    std::condition_variable followers_cv;

    // The progress thread sleeps here between looks, off the engine's lock.
    void park(std::chrono::microseconds at_most) {
        std::unique_lock lk(park_mu_);
        park_cv_.wait_for(lk, at_most, [this] { return unparked_; });
    }
    // Ends every park() for good (the engine stops).
    void unpark() {
        {
            std::lock_guard lk(park_mu_);
            unparked_ = true;
        }
        park_cv_.notify_all();
    }
    bool unparked() {
        std::lock_guard lk(park_mu_);
        return unparked_;
    }

    void wake_followers() {
        if (followers > 0) followers_cv.notify_all();
    }
    // The poller sleeps in the drivers' wait and is not this thread: a
    // change it must see needs a transport wake().
    bool other_thread_blocked() const { return blocked && poller != std::this_thread::get_id(); }

private:
    std::mutex park_mu_;
    std::condition_variable park_cv_;
    bool unparked_ = false;
};

}  // namespace ftmpi::p2p
