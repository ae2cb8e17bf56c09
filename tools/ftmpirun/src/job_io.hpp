// job_io.hpp — what the job's threads share: the printer that writes whole
// lines (ranks never mix inside a line) and the controller's inbox of events
// (process ends, forwarded signals, failed daemons, requests from job/<J>).
#pragma once

#include "failure_policy.hpp"
#include "job_events.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

namespace harness::ftmpirun {

class Printer {
public:
    Printer(std::int64_t job, bool tag, bool timestamp = false) : job_(job), tag_(tag), timestamp_(timestamp) {}

    // label: the rank, "2.1" for a replacement.
    void line(const std::string &label, int stream, const std::string &text);
    void note(const std::string &text) { write_all(2, "ftmpirun: " + text + "\n"); }

private:
    void write_all(int fd, const std::string &s);
    std::int64_t job_;
    bool tag_;
    bool timestamp_;
    std::mutex mutex_;
};

struct Event {
    enum class Kind { process_end, signal, member_failed, fence, respawn, spawn } kind = Kind::process_end;
    std::size_t process = 0;  // process_end: index into the job's process table
    RankExit exit;            // process_end
    int sig = 0;              // signal
    std::string member;       // member_failed
    FenceRequest fence;
    RespawnRequest respawn;
    SpawnRequest spawn;
    bool member_left = false;  // member_failed: it stopped cleanly (left the VM)
};

class Inbox {
public:
    using Clock = std::chrono::steady_clock;
    void post(Event e) {
        std::lock_guard lock(mutex_);
        events_.push_back(std::move(e));
        changed_.notify_one();
    }
    // The next event, or nothing once deadline passes.
    std::optional<Event> next(std::optional<Clock::time_point> deadline) {
        std::unique_lock lock(mutex_);
        auto ready = [&] { return !events_.empty(); };
        if (deadline) {
            if (!changed_.wait_until(lock, *deadline, ready)) return std::nullopt;
        } else {
            changed_.wait(lock, ready);
        }
        Event e = std::move(events_.front());
        events_.pop_front();
        return e;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Event> events_;
};

}  // namespace harness::ftmpirun
