#include "root_dir.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace harness::hcore {

Result<RootLock> RootLock::acquire(const std::filesystem::path &root) {
    std::error_code ec;
    for (const auto &dir : {root / "lib", root / "cache" / "lib", root / "var"}) {
        std::filesystem::create_directories(dir, ec);
        if (ec) return make_error(HARNESS_ERR_INTERNAL, "cannot create " + dir.string() + ": " + ec.message());
    }
    auto lock_path = root / "var" / "hcored.lock";
    int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return make_error(HARNESS_ERR_INTERNAL, "cannot open " + lock_path.string() + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = {};
        ssize_t n = ::pread(fd, pid, sizeof pid - 1, 0);
        ::close(fd);
        std::string who = n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : std::string("?");
        while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
        return make_error(HARNESS_ERR_BUSY, "another hcored (pid " + who + ") already uses root " + root.string());
    }
    std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
        // The lock is what matters; the pid is only for the message above.
    }
    return RootLock(fd);
}

RootLock::~RootLock() {
    if (fd_ >= 0) ::close(fd_);
}

}  // namespace harness::hcore
