#include "io.hpp"

#include <cerrno>
#include <climits>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/un.h>
#include <unistd.h>

namespace harness::hlib::detail {

int remaining_ms(Clock::time_point deadline) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return 0;
    return left > INT_MAX ? INT_MAX : static_cast<int>(left);
}

Error errno_error(const char *what, int err) {
    std::string message = std::string(what) + ": " + std::strerror(err);
    switch (err) {
    case ECONNREFUSED:
    case ECONNRESET:
    case ECONNABORTED:
    case EPIPE:
    case ENOENT:  // a Unix socket path that does not exist: no daemon there
    case ENOTCONN:
    case EHOSTUNREACH:
    case ENETUNREACH:
    case ENETDOWN:
    case EHOSTDOWN: return make_error(HARNESS_ERR_UNREACHABLE, message);
    case ETIMEDOUT: return make_error(HARNESS_ERR_TIMEOUT, message);
    default: return make_error(HARNESS_ERR_INTERNAL, message);
    }
}

Error timeout_error(const char *what) {
    return make_error(HARNESS_ERR_TIMEOUT, std::string(what) + ": deadline passed");
}

Result<void> wait_fd(int fd, short events, Clock::time_point deadline, const char *what) {
    for (;;) {
        pollfd p{fd, events, 0};
        int n = ::poll(&p, 1, remaining_ms(deadline));
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno_error(what, errno);
        }
        if (n == 0) return timeout_error(what);
        // POLLHUP/POLLERR: let the following read/write report the real error.
        return {};
    }
}

void set_nonblocking(int fd, bool on) {
    int flags = ::fcntl(fd, F_GETFL, 0);
    if (flags < 0) return;
    ::fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK);
}

void close_fd(int &fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

namespace {

// Finishes a non-blocking connect() started on fd.
Result<void> finish_connect(int fd, const sockaddr *addr, socklen_t len, Clock::time_point deadline, const char *what) {
    if (::connect(fd, addr, len) == 0) return {};
    if (errno != EINPROGRESS && errno != EAGAIN && errno != EINTR) return errno_error(what, errno);
    auto waited = wait_fd(fd, POLLOUT, deadline, what);
    if (!waited) return waited.error();
    int err = 0;
    socklen_t err_len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &err_len) != 0) return errno_error(what, errno);
    if (err != 0) return errno_error(what, err);
    return {};
}

}  // namespace

Result<int> connect_unix(const std::filesystem::path &socket, Clock::time_point deadline) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string &p = socket.native();
    if (p.size() >= sizeof addr.sun_path) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "socket path too long: " + p);
    std::memcpy(addr.sun_path, p.c_str(), p.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return errno_error("socket", errno);
    std::string what = "connect to " + p;
    auto done = finish_connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr, deadline, what.c_str());
    if (!done) {
        ::close(fd);
        return done.error();
    }
    return fd;
}

namespace {

Result<addrinfo *> lookup(const Endpoint &where, int socktype) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = socktype;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *list = nullptr;
    std::string port = std::to_string(where.port);
    int rc = ::getaddrinfo(where.host.c_str(), port.c_str(), &hints, &list);
    if (rc != 0 || !list)
        return make_error(HARNESS_ERR_UNREACHABLE,
                          "cannot resolve " + where.to_string() + ": " + (rc ? ::gai_strerror(rc) : "no address"));
    return list;
}

}  // namespace

Result<int> connect_tcp(const Endpoint &where, Clock::time_point deadline) {
    auto list = lookup(where, SOCK_STREAM);
    if (!list) return list.error();
    std::string what = "connect to " + where.to_string();
    Error last = make_error(HARNESS_ERR_UNREACHABLE, what);
    for (addrinfo *ai = *list; ai; ai = ai->ai_next) {
        int fd = ::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0) {
            last = errno_error("socket", errno);
            continue;
        }
        auto done = finish_connect(fd, ai->ai_addr, ai->ai_addrlen, deadline, what.c_str());
        if (done) {
            ::freeaddrinfo(*list);
            int one = 1;
            // Requests are small and latency-bound: never wait for Nagle.
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            return fd;
        }
        ::close(fd);
        last = done.error();
        if (last.status == HARNESS_ERR_TIMEOUT) break;
    }
    ::freeaddrinfo(*list);
    return last;
}

Result<SocketAddress> resolve_udp(const Endpoint &where) {
    auto list = lookup(where, SOCK_DGRAM);
    if (!list) return list.error();
    SocketAddress a;
    std::memcpy(&a.storage, (*list)->ai_addr, (*list)->ai_addrlen);
    a.length = (*list)->ai_addrlen;
    ::freeaddrinfo(*list);
    return a;
}

Result<int> connect_udp(const Endpoint &where) {
    auto addr = resolve_udp(where);
    if (!addr) return addr.error();
    int fd = ::socket(addr->storage.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return errno_error("socket", errno);
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&addr->storage), addr->length) != 0) {
        int err = errno;
        ::close(fd);
        return errno_error(("connect udp " + where.to_string()).c_str(), err);
    }
    return fd;
}

Result<void> write_all(int fd, std::span<const std::uint8_t> data, Clock::time_point deadline) {
    std::size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            auto w = wait_fd(fd, POLLOUT, deadline, "send");
            if (!w) return w.error();
            continue;
        }
        return errno_error("send", n < 0 ? errno : EPIPE);
    }
    return {};
}

Result<void> read_exact(int fd, std::span<std::uint8_t> data, Clock::time_point deadline, bool *started) {
    std::size_t done = 0;
    if (started) *started = false;
    while (done < data.size()) {
        ssize_t n = ::recv(fd, data.data() + done, data.size() - done, 0);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
            if (started) *started = true;
            continue;
        }
        if (n == 0) return make_error(HARNESS_ERR_UNREACHABLE, "connection closed by the daemon");
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            auto w = wait_fd(fd, POLLIN, deadline, "receive");
            if (!w) return w.error();
            continue;
        }
        return errno_error("receive", errno);
    }
    return {};
}

}  // namespace harness::hlib::detail
