#include "child_reaper.hpp"

#include <cerrno>
#include <csignal>
#include <sys/wait.h>
#include <vector>

namespace harness::hcore {

ChildReaper::ChildReaper(boost::asio::io_context &io) : sigchld_(io, SIGCHLD) {
    arm();
}

void ChildReaper::arm() {
    sigchld_.async_wait([this](const boost::system::error_code &ec, int) {
        if (ec) return;
        poll();
        arm();
    });
}

void ChildReaper::watch(pid_t pid, Callback cb) {
    children_[pid] = std::move(cb);
    poll();  // it may have exited before we watched it
}

void ChildReaper::poll() {
    // Callbacks run after the walk: they may watch new children.
    std::vector<std::pair<Callback, int>> finished;
    for (auto it = children_.begin(); it != children_.end();) {
        int status = 0;
        pid_t r = ::waitpid(it->first, &status, WNOHANG);
        if (r == it->first || (r < 0 && errno == ECHILD)) {
            finished.emplace_back(std::move(it->second), r == it->first ? status : 0);
            it = children_.erase(it);
        } else {
            ++it;
        }
    }
    for (auto &[cb, status] : finished)
        if (cb) cb(status);
}

void ChildReaper::kill_all() {
    for (auto &[pid, cb] : children_) ::kill(pid, SIGKILL);
    for (auto &[pid, cb] : children_) {
        int status = 0;
        ::waitpid(pid, &status, 0);
    }
    children_.clear();
}

}  // namespace harness::hcore
