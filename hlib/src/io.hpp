// hlib/src/io.hpp — blocking-style socket I/O with poll() deadlines (internal).
//
// Sockets are kept non-blocking; every wait goes through poll() with the time
// left until a deadline, so no call can hang. errno values that mean "the peer
// is gone" become HARNESS_ERR_UNREACHABLE, a passed deadline HARNESS_ERR_TIMEOUT.
#pragma once

#include <harness/common/endpoint.hpp>
#include <harness/common/result.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <span>

#include <sys/socket.h>

namespace harness::hlib::detail {

using Clock = std::chrono::steady_clock;

// Milliseconds left until the deadline, clamped to [0, INT_MAX].
int remaining_ms(Clock::time_point deadline);
Error errno_error(const char *what, int err);
Error timeout_error(const char *what);

// Waits until fd has one of events (POLLIN/POLLOUT). Times out at the deadline.
Result<void> wait_fd(int fd, short events, Clock::time_point deadline, const char *what);

Result<int> connect_unix(const std::filesystem::path &socket, Clock::time_point deadline);
Result<int> connect_tcp(const Endpoint &where, Clock::time_point deadline);  // TCP_NODELAY set

struct SocketAddress {
    sockaddr_storage storage{};
    socklen_t length = 0;
};
Result<SocketAddress> resolve_udp(const Endpoint &where);
// A UDP socket connect()ed to where, so only that peer's datagrams arrive and
// an ICMP "port unreachable" shows up as ECONNREFUSED.
Result<int> connect_udp(const Endpoint &where);

Result<void> write_all(int fd, std::span<const std::uint8_t> data, Clock::time_point deadline);
// Reads exactly data.size() bytes. *started tells whether any byte was read
// before an error (then the stream is out of step and must be closed).
Result<void> read_exact(int fd, std::span<std::uint8_t> data, Clock::time_point deadline, bool *started = nullptr);

void set_nonblocking(int fd, bool on);
void close_fd(int &fd);

}  // namespace harness::hlib::detail
