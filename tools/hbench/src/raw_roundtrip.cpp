#include "raw_roundtrip.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace hbench {

namespace {

// How long a busy-polling end spins before it sleeps in poll(): well above a
// loopback round trip when both ends run, far short of a scheduler time slice.
constexpr auto kSpinLimit = std::chrono::microseconds(50);

[[noreturn]] void fail(const std::string &what) {
    throw std::runtime_error("raw round trip: " + what + ": " + std::strerror(errno));
}

struct Fd {
    int fd = -1;
    explicit Fd(int f = -1) : fd(f) {}
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }
    void reset() {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
};

sockaddr_in loopback(std::uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

sockaddr_in bound_address(int fd) {
    sockaddr_in a{};
    socklen_t len = sizeof a;
    if (::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) != 0) fail("getsockname");
    return a;
}

void set_nodelay(int fd) {
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// A connected pair of sockets: [0] for the caller, [1] for the echo child.
void make_pair(RawTransport t, Fd &mine, Fd &theirs) {
    if (t == RawTransport::unix_stream) {
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) fail("socketpair");
        mine.fd = sv[0];
        theirs.fd = sv[1];
        return;
    }
    if (t == RawTransport::tcp) {
        Fd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (listener.fd < 0) fail("socket");
        auto a = loopback(0);
        if (::bind(listener.fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || ::listen(listener.fd, 1) != 0)
            fail("bind/listen");
        a = bound_address(listener.fd);
        mine.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (mine.fd < 0 || ::connect(mine.fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) fail("connect");
        theirs.fd = ::accept4(listener.fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (theirs.fd < 0) fail("accept");
        set_nodelay(mine.fd);
        set_nodelay(theirs.fd);
        return;
    }
    mine.fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    theirs.fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (mine.fd < 0 || theirs.fd < 0) fail("socket");
    auto a = loopback(0);
    if (::bind(mine.fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
        ::bind(theirs.fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0)
        fail("bind");
    auto am = bound_address(mine.fd), at = bound_address(theirs.fd);
    if (::connect(mine.fd, reinterpret_cast<sockaddr *>(&at), sizeof at) != 0 ||
        ::connect(theirs.fd, reinterpret_cast<sockaddr *>(&am), sizeof am) != 0)
        fail("connect");
}

// Receives exactly n bytes (a stream) or one datagram of up to n bytes.
// Returns false on end of stream (or an empty datagram: the stop signal).
bool receive(int fd, std::uint8_t *buf, std::size_t n, bool stream, bool spin) {
    std::size_t got = 0;
    auto spin_until = Clock::now() + kSpinLimit;
    do {
        ssize_t r = ::recv(fd, buf + got, n - got, spin ? MSG_DONTWAIT : 0);
        if (r > 0) {
            got += static_cast<std::size_t>(r);
            if (!stream) return true;
            continue;
        }
        if (r == 0) return false;
        if (errno == EINTR) continue;
        if (spin && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            // Past the spin limit the other end is not running (2 vCPUs and
            // other load): block, or each exchange costs a time slice.
            if (Clock::now() > spin_until) {
                pollfd p{fd, POLLIN, 0};
                if (::poll(&p, 1, 5000) <= 0) return false;
            }
            continue;
        }
        return false;  // includes the SO_RCVTIMEO timeout of a blocking socket
    } while (got < n);
    return true;
}

bool send_all(int fd, const std::uint8_t *buf, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
        ssize_t r = ::send(fd, buf + done, n - done, MSG_NOSIGNAL);
        if (r > 0) {
            done += static_cast<std::size_t>(r);
            continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
        return false;
    }
    return true;
}

[[noreturn]] void echo_child(int fd, MessageSize size, bool stream, bool spin) {
    std::vector<std::uint8_t> in(size.request), out(size.reply, 0x5a);
    while (receive(fd, in.data(), in.size(), stream, spin))
        if (!send_all(fd, out.data(), out.size())) break;
    ::_exit(0);
}

// Busy-polling ends are pinned to two different CPUs: on one CPU they would
// take turns by time slice, which is no floor. Restores the caller's mask.
class SpreadCpus {
public:
    SpreadCpus() {
        if (::sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
        int found = 0;
        for (int cpu = 0; cpu < CPU_SETSIZE && found < 2; ++cpu)
            if (CPU_ISSET(cpu, &saved_)) cpus_[found++] = cpu;
        active_ = found == 2;
    }
    ~SpreadCpus() {
        if (pinned_) ::sched_setaffinity(0, sizeof saved_, &saved_);
    }
    void pin(int which) {
        if (!active_) return;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpus_[which], &one);
        pinned_ = ::sched_setaffinity(0, sizeof one, &one) == 0;
    }

private:
    cpu_set_t saved_{};
    int cpus_[2] = {0, 0};
    bool active_ = false, pinned_ = false;
};

}  // namespace

const char *raw_name(RawTransport t) {
    switch (t) {
    case RawTransport::tcp: return "tcp";
    case RawTransport::udp: return "udp";
    case RawTransport::unix_stream: return "unix";
    }
    return "?";
}

Summary raw_roundtrip(RawTransport transport, RawWait wait, MessageSize size, int calls, int warmup) {
    const bool stream = transport != RawTransport::udp;
    const bool spin = wait == RawWait::busy_poll;
    Fd mine, theirs;
    make_pair(transport, mine, theirs);
    // A lost datagram or a dead child must not hang the benchmark.
    timeval limit{5, 0};
    ::setsockopt(mine.fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    if (spin) {
        ::fcntl(mine.fd, F_SETFL, ::fcntl(mine.fd, F_GETFL) | O_NONBLOCK);
        ::fcntl(theirs.fd, F_SETFL, ::fcntl(theirs.fd, F_GETFL) | O_NONBLOCK);
    }
    SpreadCpus spread;
    pid_t parent = ::getpid();
    pid_t child = ::fork();
    if (child < 0) fail("fork");
    if (child == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a spinning orphan would eat a core
        if (::getppid() != parent) ::_exit(1);
        if (spin) spread.pin(1);
        mine.reset();
        echo_child(theirs.fd, size, stream, spin);
    }
    theirs.reset();
    if (spin) spread.pin(0);

    std::vector<std::uint8_t> out(size.request, 0xa5), in(std::max<std::size_t>(size.reply, 1));
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(calls));
    bool ok = true;
    for (int i = 0; i < warmup + calls && ok; ++i) {
        auto t0 = Clock::now();
        ok = send_all(mine.fd, out.data(), out.size()) && receive(mine.fd, in.data(), size.reply, stream, spin);
        auto t1 = Clock::now();
        if (i >= warmup) samples.push_back(micros(t1 - t0));
    }
    int saved = errno;
    // Stop the child: end of stream, or an empty datagram.
    if (stream)
        ::shutdown(mine.fd, SHUT_WR);
    else
        ::send(mine.fd, nullptr, 0, MSG_NOSIGNAL);
    mine.reset();
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    if (!ok) {
        errno = saved;
        fail(std::string(raw_name(transport)) + (spin ? " busy-poll" : " blocking") + " exchange");
    }
    return summarize(samples);
}

RawResults measure_raw(MessageSize stream, MessageSize datagram, int calls, int warmup) {
    RawResults r;
    r.tcp_blocking = raw_roundtrip(RawTransport::tcp, RawWait::blocking, stream, calls, warmup);
    r.tcp_busypoll = raw_roundtrip(RawTransport::tcp, RawWait::busy_poll, stream, calls, warmup);
    r.udp_blocking = raw_roundtrip(RawTransport::udp, RawWait::blocking, datagram, calls, warmup);
    r.udp_busypoll = raw_roundtrip(RawTransport::udp, RawWait::busy_poll, datagram, calls, warmup);
    r.unix_blocking = raw_roundtrip(RawTransport::unix_stream, RawWait::blocking, stream, calls, warmup);
    return r;
}

}  // namespace hbench
