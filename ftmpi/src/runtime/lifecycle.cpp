// The lifecycle socket (lifecycle.hpp). HARNESS_LIFECYCLE_FD is "FD:INODE":
// the descriptor is used only when it is open here and is that very socket
// (an MPI program started by a rank inherits the variable, but not the
// descriptor: it is marked close-on-exec at the first use, so there the check
// fails and nothing is written to whatever has the same number).
#include "runtime/lifecycle.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ftmpi::runtime {

namespace {

int open_lifecycle_fd() {
    const char *v = std::getenv("HARNESS_LIFECYCLE_FD");
    if (v == nullptr || *v == '\0') return -1;
    char *end = nullptr;
    long fd = std::strtol(v, &end, 10);
    if (end == v || *end != ':' || fd < 3 || fd > 1 << 20) return -1;
    const char *ino_text = end + 1;
    unsigned long long ino = std::strtoull(ino_text, &end, 10);
    if (end == ino_text || *end != '\0') return -1;
    struct stat st {};
    if (::fstat(static_cast<int>(fd), &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_ino != ino) return -1;
    ::fcntl(static_cast<int>(fd), F_SETFD, ::fcntl(static_cast<int>(fd), F_GETFD) | FD_CLOEXEC);
    return static_cast<int>(fd);
}

}  // namespace

void report_lifecycle(const char *word) noexcept {
    static std::mutex mu;
    std::lock_guard lock(mu);
    static const int fd = open_lifecycle_fd();
    if (fd < 0) return;
    char line[64];
    const std::size_t n = std::strlen(word);
    if (n + 1 > sizeof line) return;
    std::memcpy(line, word, n);
    line[n] = '\n';
    // MSG_NOSIGNAL: a daemon that is gone gives EPIPE, which is ignored.
    ssize_t w;
    do w = ::send(fd, line, n + 1, MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
}

}  // namespace ftmpi::runtime
