// private_daemon.hpp — the hcored ftmpirun starts when no VM is reachable.
//
// It runs in a fresh root under /tmp, listens on a loopback port of its own
// choosing, lives in its own process group (a Ctrl-C at the terminal reaches
// ftmpirun, which forwards it to the job, not the daemon) and gets SIGTERM if
// ftmpirun dies (PR_SET_PDEATHSIG), so its children are killed with it. stop()
// (or destruction) ends it and removes its root.
#pragma once

#include <harness/common/endpoint.hpp>
#include <harness/common/result.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <sys/types.h>

namespace harness::ftmpirun {

class PrivateDaemon {
public:
    static Result<std::unique_ptr<PrivateDaemon>> start(std::chrono::milliseconds ready_timeout);
    ~PrivateDaemon();
    PrivateDaemon(const PrivateDaemon &) = delete;
    PrivateDaemon &operator=(const PrivateDaemon &) = delete;

    const Endpoint &tcp() const { return tcp_; }
    const std::filesystem::path &root() const { return root_; }
    std::filesystem::path key_file() const { return root_ / "vm.key"; }
    void stop();

private:
    PrivateDaemon() = default;
    std::filesystem::path root_;
    Endpoint tcp_;
    pid_t pid_ = -1;
};

// The hcored to start: $HARNESS_HCORED, the one this ftmpirun was built
// with, one beside this executable, or the first on PATH.
std::filesystem::path find_hcored();

}  // namespace harness::ftmpirun
