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
    std::chrono::steady_clock::time_point last_user_exit{};
    // Operations user threads started. A program that only starts operations
    // that complete at once (a stream of eager sends) never waits, so it never
    // sets last_user_exit; a change of this count keeps the progress thread
    // parked as well, at the cost of an increment instead of a clock read.
    uint64_t user_posts = 0;
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
