// When a process's own daemon counts as lost (daemon_watch.hpp).
#include "runtime/daemon_watch.hpp"

namespace ftmpi::runtime {

DaemonWatch::DaemonWatch(Bounds bounds, Clock::time_point start) : bounds_(bounds), last_answer_(start) {}

bool DaemonWatch::unanswered(const harness::Error &e) {
    return e.status == HARNESS_ERR_UNREACHABLE || e.status == HARNESS_ERR_TIMEOUT || e.status == HARNESS_ERR_PROTOCOL ||
        e.status == HARNESS_ERR_AUTH;
}

void DaemonWatch::answered(Clock::time_point now) {
    last_answer_ = now;
    silent_ = false;
    last_error_.clear();
}

void DaemonWatch::failed(const harness::Error &e) {
    silent_ = silent(e);
    last_error_ = e.describe();
}

std::optional<std::string> DaemonWatch::lost(Clock::time_point now) const {
    if (last_error_.empty()) return std::nullopt;  // nothing failed since the last answer
    const auto bound = silent_ ? bounds_.silent : bounds_.gone;
    if (now - last_answer_ < bound) return std::nullopt;
    return "its daemon has not answered for " + std::to_string(bound.count()) + " ms (" +
        (silent_ ? "its connection open, no answer: " : "") + last_error_ + ")";
}

}  // namespace ftmpi::runtime
