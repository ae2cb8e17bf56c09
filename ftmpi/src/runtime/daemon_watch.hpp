// daemon_watch.hpp — when a process's own daemon counts as lost: the rule
// the failure notifier (ft/notifier.cpp) and a hot standby's wait
// (standby.cpp) share. Every failed call or connect to the local daemon is
// told to the watch, every answer too; the watch says when to give up.
//
// A failure is one of two signs:
//   * gone: the connection was closed or reset, a connect was refused, the
//     daemon's socket is not there, or what came back was no answer at all
//     (protocol, authentication). That is what a killed daemon looks like:
//     the kernel closes its sockets. Lost once the daemon has not answered
//     for FTMPI_DAEMON_LOST_MS (5000).
//   * silent: a call or a connect passed its deadline with the connection
//     still open. A daemon starved of CPU on a loaded host looks like this,
//     and so does a stopped or hung one: nothing from outside tells them
//     apart, so it gets the much longer FTMPI_DAEMON_HUNG_MS (60000) before
//     the process leaves.
// The latest sign decides: a silence that ends in a closed connection ends
// at the shorter bound.
#pragma once

#include <harness/common/result.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace ftmpi::runtime {

class DaemonWatch {
public:
    using Clock = std::chrono::steady_clock;
    struct Bounds {
        std::chrono::milliseconds gone;    // FTMPI_DAEMON_LOST_MS
        std::chrono::milliseconds silent;  // FTMPI_DAEMON_HUNG_MS
    };

    explicit DaemonWatch(Bounds bounds, Clock::time_point start = Clock::now());

    // Errors that say the daemon itself did not answer (as opposed to one
    // of its services answering with an error).
    static bool unanswered(const harness::Error &e);
    // A timeout: the daemon did not answer in time, nothing says it is gone.
    static bool silent(const harness::Error &e) { return e.status == HARNESS_ERR_TIMEOUT; }

    // The daemon answered (an error reply counts: it is alive).
    void answered(Clock::time_point now = Clock::now());
    // A call or connect got no answer (unanswered(e)); remembers its sign.
    void failed(const harness::Error &e);
    // Why the process must leave the job now, or nothing while the daemon
    // may still come back.
    std::optional<std::string> lost(Clock::time_point now = Clock::now()) const;
    // When a silence that began at the last answer would make it lost: a
    // call need not wait past it.
    Clock::time_point silent_until() const { return last_answer_ + bounds_.silent; }

private:
    Bounds bounds_;
    Clock::time_point last_answer_;
    bool silent_ = false;  // the latest failure was a timeout
    std::string last_error_;
};

}  // namespace ftmpi::runtime
