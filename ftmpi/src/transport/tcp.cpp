// The TCP transport: mesh, framing, sending and reading (tcp.hpp).
#include "transport/tcp.hpp"

#include "transport/sockets.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <utility>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace ftmpi::transport {

using namespace sockets;

namespace {

constexpr size_t read_buffer_size = 256 * 1024;
// Payload reads of at least this size go straight into the landing buffer
// instead of through the read buffer (one copy instead of two).
constexpr size_t direct_read_min = 16 * 1024;
constexpr uint64_t wake_tag = ~uint64_t{0};

constexpr int max_events = 32;
static_assert(sizeof(epoll_event) * max_events <= sizeof(epoll_event_buffer::bytes));

}  // namespace

Tcp::Tcp(Sink &sink) : sink_(sink) {
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_fd_ < 0 || wake_fd_ < 0) throw sys_error("epoll/eventfd");
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = wake_tag;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
}

Tcp::~Tcp() {
    for (auto &c : conns_)
        if (c.fd >= 0) ::close(c.fd);
    for (auto &j : joining_)
        if (j.fd >= 0) ::close(j.fd);
    for (auto &[id, p] : pending_) ::close(p.fd);
    if (listen_fd_ >= 0) ::close(listen_fd_);
    ::close(wake_fd_);
    ::close(epoll_fd_);
}

std::string Tcp::listen(const std::string &host) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0) throw sys_error("socket");
    sockaddr_in sa = parse_address(host + ":0");
    if (::bind(listen_fd_, reinterpret_cast<sockaddr *>(&sa), sizeof sa) < 0) throw sys_error("bind " + host);
    if (::listen(listen_fd_, 1024) < 0) throw sys_error("listen");
    socklen_t len = sizeof sa;
    getsockname(listen_fd_, reinterpret_cast<sockaddr *>(&sa), &len);
    return host + ":" + std::to_string(ntohs(sa.sin_port));
}

std::vector<int> Tcp::connect_mesh(int my_rank, const std::vector<std::string> &addresses,
                                   std::chrono::milliseconds timeout, const PeerEnded &ended) {
    my_rank_ = my_rank;
    const int n = static_cast<int>(addresses.size());
    conns_.clear();
    conns_.resize(n);
    joining_.assign(n, Joining{});
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    // How often a wait for a peer stops to ask `ended` about it.
    constexpr auto ask_every = std::chrono::milliseconds(250);

    // A peer without an address ended before the wire-up found its card; one
    // that `ended` names ended after it published its card. Either is left
    // out (never connected, never alive); the engine declares it failed.
    std::vector<char> out(n, 0);
    for (int peer = 0; peer < n; ++peer) out[peer] = peer != my_rank && addresses[peer].empty();
    std::vector<int> ended_meanwhile;
    auto has_ended = [&](int peer) {
        if (!ended || !ended(peer)) return false;
        out[peer] = 1;
        ended_meanwhile.push_back(peer);
        return true;
    };

    for (int peer = 0; peer < my_rank; ++peer) {
        if (out[peer]) continue;
        const Contact contact = Contact::parse(addresses[peer]);
        sockaddr_in sa = parse_address(contact.address);
        int fd = -1;
        while (true) {
            fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (::connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) == 0) break;
            ::close(fd);
            fd = -1;
            if (has_ended(peer)) break;  // its port refuses because it is gone
            if (std::chrono::steady_clock::now() > deadline)
                throw std::runtime_error("cannot connect to rank " + std::to_string(peer) + " at " + contact.address);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));  // listener not up yet: retry
        }
        if (fd < 0) continue;
        Frame hello = make_hello(peer, contact.incarnation);
        if (!io_all(fd, &hello, sizeof hello, true, deadline)) {
            ::close(fd);
            if (has_ended(peer)) continue;
            throw std::runtime_error("rank " + std::to_string(peer) + " closed during wire-up");
        }
        conns_[peer].fd = fd;
        conns_[peer].incarnation = contact.incarnation;
    }
    auto higher_missing = [&] {
        int missing = 0;
        for (int peer = my_rank + 1; peer < n; ++peer)
            if (!out[peer] && conns_[peer].fd < 0) ++missing;
        return missing;
    };
    while (int missing = higher_missing()) {
        pollfd pfd{listen_fd_, POLLIN, 0};
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            throw std::runtime_error("wire-up timed out waiting for " + std::to_string(missing) +
                                     " higher rank(s) to connect");
        if (::poll(&pfd, 1, static_cast<int>(std::min(left, ask_every).count())) <= 0) {
            for (int peer = my_rank + 1; peer < n; ++peer)
                if (!out[peer] && conns_[peer].fd < 0) has_ended(peer);
            continue;
        }
        int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) throw sys_error("accept");
        // A stray client that connects and says nothing must not hold the
        // wire-up: it gets a few seconds for its hello.
        Frame h{};
        const auto hello_deadline = std::min(deadline, std::chrono::steady_clock::now() + hello_timeout);
        if (!io_all(fd, &h, sizeof h, false, hello_deadline) || h.kind != FrameKind::hello ||
            h.sender_id != hello_magic || h.source <= my_rank || h.source >= n || conns_[h.source].fd >= 0 ||
            out[h.source]) {
            refuse(fd, peer_name(fd), "not a hello from a higher rank of this job");
            continue;
        }
        conns_[h.source].fd = fd;
        conns_[h.source].incarnation = h.tag;
    }
    for (int peer = 0; peer < n; ++peer) {
        if (peer == my_rank || out[peer]) continue;
        install(peer, conns_[peer].fd, conns_[peer].incarnation);
    }
    keep_listening();
    return ended_meanwhile;
}

Frame Tcp::make_hello(int to, int to_incarnation) const {
    Frame hello{};
    hello.kind = FrameKind::hello;
    hello.source = my_rank_;
    hello.tag = my_incarnation_;
    hello.context = static_cast<uint32_t>(my_round_);
    hello.length = static_cast<uint64_t>(to);
    hello.receiver_id = static_cast<uint64_t>(to_incarnation);
    hello.sender_id = hello_magic;
    if (spawned_) hello.flags = frame_hello_spawned;
    return hello;
}

// Makes fd the live, non-blocking connection of `peer` (in epoll).
void Tcp::install(int peer, int fd, int incarnation) {
    Conn &c = conns_[peer];
    if (c.alive && c.want_out) --backlogged_;  // a live connection replaced with its queue
    c = Conn{};
    c.fd = fd;
    c.incarnation = incarnation;
    set_nonblocking(fd);
    set_nodelay(fd);
    set_keepalive(fd);
    c.alive = true;
    c.ever = true;
    c.rbuf = std::make_unique<char[]>(read_buffer_size);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = static_cast<uint64_t>(peer);
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
}

bool Tcp::connected(int peer) const {
    return conns_[peer].alive && !conns_[peer].bye;
}
bool Tcp::bye_received(int peer) const {
    return conns_[peer].bye;
}

bool Tcp::flushed() const {
    return backlogged_ == 0;
}

void Tcp::wake() {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

Tcp::SendResult Tcp::send(int peer, const Frame &header, const void *payload, size_t len, bool copy, uint64_t token) {
    Conn &c = conns_[peer];
    if (!c.alive) return SendResult::peer_lost;
    Outgoing o;
    o.header = header;
    o.payload = static_cast<const char *>(payload);
    o.length = len;
    o.token = token;
    if (c.out.empty()) {
        // Fast path: write header and payload with one call.
        iovec iov[2] = {{const_cast<Frame *>(&header), sizeof header}, {const_cast<void *>(payload), len}};
        msghdr msg{};
        msg.msg_iov = iov;
        msg.msg_iovlen = len ? 2 : 1;
        ssize_t n;
        do {
            n = ::sendmsg(c.fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        } while (n < 0 && errno == EINTR);
        if (n < 0 && errno != EAGAIN) {
            lose(peer, true);
            return SendResult::peer_lost;
        }
        o.offset = n < 0 ? 0 : static_cast<size_t>(n);
        if (o.offset == sizeof header + len) return SendResult::done;
    }
    SendResult result = SendResult::pending;
    if (copy) {
        // Keep the unwritten part of the payload; the caller's buffer is free.
        size_t from = o.offset > sizeof header ? o.offset - sizeof header : 0;
        o.owned.assign(o.payload + from, o.payload + len);
        o.payload = o.owned.data();
        o.length = len - from;
        if (from > 0) o.offset = sizeof header;  // the header is out; the copy starts at the rest
        result = SendResult::done;
    } else {
        o.report = true;
    }
    c.out.push_back(std::move(o));
    set_out_interest(peer, true);
    return result;
}

void Tcp::set_out_interest(int peer, bool on) {
    Conn &c = conns_[peer];
    if (c.want_out == on || !c.alive) return;
    c.want_out = on;
    backlogged_ += on ? 1 : -1;
    epoll_event ev{};
    ev.events = on ? (EPOLLIN | EPOLLOUT) : EPOLLIN;
    ev.data.u64 = static_cast<uint64_t>(peer);
    epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &ev);
}

void Tcp::flush(int peer) {
    Conn &c = conns_[peer];
    while (c.alive && !c.out.empty()) {
        iovec iov[64];
        int n_iov = 0;
        for (auto it = c.out.begin(); it != c.out.end() && n_iov < 62; ++it) {
            size_t off = it->offset;
            if (off < sizeof(Frame)) iov[n_iov++] = {reinterpret_cast<char *>(&it->header) + off, sizeof(Frame) - off};
            size_t poff = off > sizeof(Frame) ? off - sizeof(Frame) : 0;
            if (it->length > poff) iov[n_iov++] = {const_cast<char *>(it->payload) + poff, it->length - poff};
        }
        msghdr msg{};
        msg.msg_iov = iov;
        msg.msg_iovlen = static_cast<size_t>(n_iov);
        ssize_t n = ::sendmsg(c.fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) return;
            lose(peer, true);
            return;
        }
        size_t left = static_cast<size_t>(n);
        while (left > 0 || (!c.out.empty() && c.out.front().offset == sizeof(Frame) + c.out.front().length)) {
            Outgoing &o = c.out.front();
            size_t want = sizeof(Frame) + o.length - o.offset;
            size_t take = std::min(want, left);
            o.offset += take;
            left -= take;
            if (o.offset < sizeof(Frame) + o.length) break;
            bool report = o.report;
            uint64_t token = o.token;
            c.out.pop_front();
            if (report) sink_.on_sent(token);
        }
    }
    if (c.alive && c.out.empty()) set_out_interest(peer, false);
}

void Tcp::lose(int peer, bool failure) {
    Conn &c = conns_[peer];
    if (!c.alive) return;
    c.alive = false;
    if (std::exchange(c.want_out, false)) --backlogged_;
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    c.fd = -1;
    c.out.clear();
    if (failure && !c.bye) {
        lost_.emplace_back(peer, c.incarnation);
        wake();  // a poller blocked in wait_events reports it at once
    }
}

int Tcp::wait_events(int timeout_ms) {
    auto *events = reinterpret_cast<epoll_event *>(events_.bytes);
    int n;
    do {
        n = epoll_wait(epoll_fd_, events, max_events, timeout_ms);
    } while (n < 0 && errno == EINTR);
    return n < 0 ? 0 : n;
}

void Tcp::process_events(int n) {
    auto *events = reinterpret_cast<epoll_event *>(events_.bytes);
    for (int i = 0; i < n; ++i) {
        uint64_t tag = events[i].data.u64;
        if (tag == wake_tag) {
            uint64_t v;
            [[maybe_unused]] ssize_t r = ::read(wake_fd_, &v, sizeof v);
            continue;
        }
        if (tag == listen_tag) {
            accept_ready();
            continue;
        }
        if (tag >= pending_tag_base) {
            pending_ready(tag - pending_tag_base);
            continue;
        }
        int peer = static_cast<int>(tag);
        if (peer >= static_cast<int>(conns_.size()) || !conns_[peer].alive) continue;  // closed by an earlier event
        if (events[i].events & EPOLLOUT) flush(peer);
        if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) read_ready(peer);
    }
    // Peers lost here or inside send() are reported outside those loops.
    if (!pending_.empty()) expire_pending();
    while (!lost_.empty()) {
        auto [peer, incarnation] = lost_.back();
        lost_.pop_back();
        // A connection of an incarnation that was replaced meanwhile (admit)
        // is not the current process's failure.
        if (conns_[peer].incarnation == incarnation) sink_.on_peer_lost(peer);
    }
}

void Tcp::read_ready(int peer) {
    Conn &c = conns_[peer];
    while (c.alive) {
        if (c.in_payload) {
            if (!payload_step(peer, c)) return;
            continue;
        }
        if (c.rlen - c.rpos >= sizeof(Frame)) {
            std::memcpy(&c.current, c.rbuf.get() + c.rpos, sizeof(Frame));
            c.rpos += sizeof(Frame);
            const Frame &f = c.current;
            if (f.kind == FrameKind::eager || f.kind == FrameKind::data) {
                c.landing = sink_.on_header(peer, f);
                c.done = 0;
                c.in_payload = true;
            } else {
                if (f.kind == FrameKind::bye) c.bye = true;
                c.landing = Landing{};
                sink_.on_frame(peer, f, c.landing);
            }
            continue;
        }
        // Need more bytes: keep the partial header at the buffer's start.
        if (c.rpos > 0) {
            std::memmove(c.rbuf.get(), c.rbuf.get() + c.rpos, c.rlen - c.rpos);
            c.rlen -= c.rpos;
            c.rpos = 0;
        }
        ssize_t n = ::recv(c.fd, c.rbuf.get() + c.rlen, read_buffer_size - c.rlen, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return;
        if (n <= 0) {
            lose(peer, true);  // EOF or error; a failure unless the peer said bye
            return;
        }
        c.rlen += static_cast<size_t>(n);
    }
}

// Moves payload bytes of the current frame to its landing; returns false
// when the socket has nothing more for now.
bool Tcp::payload_step(int peer, Conn &c) {
    const size_t total = c.current.length;
    auto deliver = [&c](const char *src, size_t n) {
        if (c.done < c.landing.keep) {
            size_t k = std::min(n, c.landing.keep - c.done);
            std::memcpy(c.landing.dst + c.done, src, k);
        }
        c.done += n;
    };
    // First what the read buffer already holds.
    size_t buffered = std::min(c.rlen - c.rpos, total - c.done);
    if (buffered > 0) {
        deliver(c.rbuf.get() + c.rpos, buffered);
        c.rpos += buffered;
    }
    if (c.done == total) {
        frame_complete(peer, c);
        return true;
    }
    c.rpos = c.rlen = 0;
    size_t remaining = total - c.done;
    ssize_t n;
    if (remaining >= direct_read_min && c.done + remaining <= c.landing.keep) {
        n = ::recv(c.fd, c.landing.dst + c.done, remaining, MSG_DONTWAIT);
        if (n > 0) c.done += static_cast<size_t>(n);
    } else {
        n = ::recv(c.fd, c.rbuf.get(), read_buffer_size, MSG_DONTWAIT);
        if (n > 0) c.rlen = static_cast<size_t>(n);
    }
    if (n < 0 && errno == EINTR) return true;
    if (n < 0 && errno == EAGAIN) return false;
    if (n <= 0) {
        lose(peer, true);
        return false;
    }
    if (c.done == total) frame_complete(peer, c);
    return true;
}

void Tcp::frame_complete(int peer, Conn &c) {
    c.in_payload = false;
    Landing landing = c.landing;
    c.landing = Landing{};
    sink_.on_frame(peer, c.current, landing);
}

}  // namespace ftmpi::transport
