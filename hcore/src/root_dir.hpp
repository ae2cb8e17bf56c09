// The daemon's root directory: creates lib/, cache/lib/, var/ and holds an
// exclusive lock on var/hcored.lock for the daemon's lifetime, so a second
// hcored on the same root fails at once with a clear message instead of
// stealing the first one's Unix socket.
#pragma once

#include <harness/common/result.hpp>

#include <filesystem>

namespace harness::hcore {

class RootLock {
public:
    static Result<RootLock> acquire(const std::filesystem::path &root);
    RootLock(RootLock &&other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    RootLock &operator=(RootLock &&) = delete;
    ~RootLock();

private:
    explicit RootLock(int fd) : fd_(fd) {}
    int fd_ = -1;
};

}  // namespace harness::hcore
