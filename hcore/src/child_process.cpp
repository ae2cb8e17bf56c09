#include "child_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <vector>

namespace harness::hcore {

void prepare_child(std::initializer_list<int *> keep) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    for (int sig : {SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGPIPE}) ::signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);

    // First move every kept fd above the target range, then down to 3, 4, …
    // so that no dup2 overwrites a kept fd that has not moved yet.
    int target = 3 + static_cast<int>(keep.size());
    std::vector<int> moved;
    for (int *fd : keep) moved.push_back(::fcntl(*fd, F_DUPFD, target + 64));
    int next = 3;
    std::size_t i = 0;
    for (int *fd : keep) {
        ::dup2(moved[i++], next);
        *fd = next++;
    }
    ::close_range(static_cast<unsigned>(next), ~0U, 0);
}

bool write_all(int fd, const void *data, unsigned long len) {
    auto p = static_cast<const std::uint8_t *>(data);
    while (len > 0) {
        ssize_t n = ::write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        len -= static_cast<unsigned long>(n);
    }
    return true;
}

bool read_all(int fd, void *data, unsigned long len) {
    auto p = static_cast<std::uint8_t *>(data);
    while (len > 0) {
        ssize_t n = ::read(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        len -= static_cast<unsigned long>(n);
    }
    return true;
}

}  // namespace harness::hcore
