// Reaps the daemon's forked children and tells their owners how they ended.
//
// SIGCHLD arrives through Asio's signal_set on the I/O thread; each watched
// pid is then polled with waitpid(pid, WNOHANG). Only watched pids are reaped,
// so a plugin that forks children of its own keeps control of them.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <functional>
#include <map>
#include <sys/types.h>

namespace harness::hcore {

class ChildReaper {
public:
    using Callback = std::function<void(int wait_status)>;

    explicit ChildReaper(boost::asio::io_context &io);
    // Call on the I/O thread. cb runs on the I/O thread once pid has exited.
    void watch(pid_t pid, Callback cb);
    std::size_t watched() const { return children_.size(); }
    // Kills every watched child (SIGKILL) and reaps it; used at shutdown.
    void kill_all();

private:
    void arm();
    void poll();

    boost::asio::signal_set sigchld_;
    std::map<pid_t, Callback> children_;
};

}  // namespace harness::hcore
