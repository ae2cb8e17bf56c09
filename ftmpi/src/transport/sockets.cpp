// Small socket helpers shared by the TCP transport (sockets.hpp).
#include "transport/sockets.hpp"

#include "settings/values.hpp"

#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace ftmpi::transport::sockets {

std::runtime_error sys_error(const std::string &what) {
    return std::runtime_error(what + ": " + std::strerror(errno));
}

void set_nonblocking(int fd) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void set_nodelay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

void set_keepalive(int fd) {
    static const int idle = settings::current().integer(settings::Id::tcp_keepalive);
    int one = 1, interval = 5, probes = 3;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
    // Unacknowledged data to a dead host: give up after the same time
    // instead of the kernel's ~15 minutes of retransmissions.
    unsigned user_timeout_ms = static_cast<unsigned>(idle + interval * probes) * 1000u;
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof user_timeout_ms);
}

bool io_all(int fd, void *buf, size_t len, bool write, std::chrono::steady_clock::time_point deadline) {
    char *p = static_cast<char *>(buf);
    while (len > 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd pfd{fd, static_cast<short>(write ? POLLOUT : POLLIN), 0};
        if (::poll(&pfd, 1, static_cast<int>(left.count())) <= 0) continue;
        ssize_t n = write ? ::send(fd, p, len, MSG_NOSIGNAL) : ::recv(fd, p, len, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return false;
        p += n;
        len -= static_cast<size_t>(n);
    }
    return true;
}

sockaddr_in parse_address(const std::string &address) {
    auto colon = address.rfind(':');
    if (colon == std::string::npos) throw std::runtime_error("bad contact address '" + address + "'");
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    char *end = nullptr;
    long port = std::strtol(address.c_str() + colon + 1, &end, 10);
    if (*end != '\0' || port < 0 || port > 65535)
        throw std::runtime_error("bad port in contact address '" + address + "'");
    sa.sin_port = htons(static_cast<uint16_t>(port));
    std::string host = address.substr(0, colon);
    if (inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1) {
        addrinfo hints{}, *res = nullptr;
        hints.ai_family = AF_INET;
        if (getaddrinfo(host.c_str(), nullptr, &hints, &res) != 0 || !res)
            throw std::runtime_error("cannot resolve host '" + host + "'");
        sa.sin_addr = reinterpret_cast<sockaddr_in *>(res->ai_addr)->sin_addr;
        freeaddrinfo(res);
    }
    return sa;
}

int connect_before(const sockaddr_in &sa, std::chrono::steady_clock::time_point deadline) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&sa), sizeof sa) != 0) {
        if (errno != EINPROGRESS) {
            ::close(fd);
            return -1;
        }
        while (true) {
            auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            pollfd pfd{fd, POLLOUT, 0};
            int n = left.count() > 0 ? ::poll(&pfd, 1, static_cast<int>(left.count())) : 0;
            if (n < 0 && errno == EINTR) continue;
            int err = 0;
            socklen_t len = sizeof err;
            if (n <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
                ::close(fd);
                return -1;
            }
            break;
        }
    }
    // Blocking again: the caller does its handshake with io_all.
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

std::string peer_name(int fd) {
    sockaddr_in sa{};
    socklen_t len = sizeof sa;
    if (getpeername(fd, reinterpret_cast<sockaddr *>(&sa), &len) != 0) return "?";
    char buf[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &sa.sin_addr, buf, sizeof buf);
    return std::string(buf) + ":" + std::to_string(ntohs(sa.sin_port));
}

}  // namespace ftmpi::transport::sockets
