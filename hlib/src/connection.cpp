// Connection over a stream (TCP or Unix socket): open + handshake, framed
// requests, replies matched by request id.
#include "connection_state.hpp"
#include "frame.hpp"
#include "handshake.hpp"
#include "io.hpp"

#include <poll.h>

namespace harness::hlib {

using namespace detail;

Connection::Connection(Connection &&o) noexcept
    : inbox_(std::move(o.inbox_)), fd_(o.fd_), transport_(o.transport_), peer_id_(std::move(o.peer_id_)),
      vm_(std::move(o.vm_)), next_request_id_(o.next_request_id_), max_body_(o.max_body_), udp_(std::move(o.udp_)) {
    o.fd_ = -1;
}

Connection &Connection::operator=(Connection &&o) noexcept {
    if (this != &o) {
        close_fd(fd_);
        fd_ = o.fd_;
        o.fd_ = -1;
        transport_ = o.transport_;
        peer_id_ = std::move(o.peer_id_);
        vm_ = std::move(o.vm_);
        next_request_id_ = o.next_request_id_;
        max_body_ = o.max_body_;
        udp_ = std::move(o.udp_);
        inbox_ = std::move(o.inbox_);
    }
    return *this;
}

Connection::~Connection() {
    close_fd(fd_);
}

namespace {

Result<Connection> finish_open(Result<int> fd, const VmKey &key, Deadline deadline,
                               const std::function<Connection(int, HandshakeResult)> &make) {
    if (!fd) return fd.error();
    auto hs = client_handshake(*fd, key, protocol::kDefaultMaxBody, deadline);
    if (!hs) {
        int f = *fd;
        close_fd(f);
        return hs.error();
    }
    return make(*fd, std::move(*hs));
}

}  // namespace

Result<Connection> Connection::open_unix(const std::filesystem::path &socket, const VmKey &key, Deadline deadline) {
    return finish_open(connect_unix(socket, deadline), key, deadline, [](int fd, HandshakeResult hs) {
        Connection c;
        c.fd_ = fd;
        c.transport_ = Transport::unix_socket;
        c.vm_ = std::move(hs.vm);
        c.peer_id_ = std::move(hs.server_id);
        c.inbox_ = std::make_unique<Inbox>();
        return c;
    });
}

Result<Connection> Connection::open_tcp(const Endpoint &where, const VmKey &key, Deadline deadline) {
    return finish_open(connect_tcp(where, deadline), key, deadline, [](int fd, HandshakeResult hs) {
        Connection c;
        c.fd_ = fd;
        c.transport_ = Transport::tcp;
        c.vm_ = std::move(hs.vm);
        c.peer_id_ = std::move(hs.server_id);
        c.inbox_ = std::make_unique<Inbox>();
        return c;
    });
}

Result<std::uint64_t> Connection::send_request(protocol::Type type, std::span<const std::uint8_t> body) {
    return send_request(type, body, deadline_in(std::chrono::milliseconds(10000)));
}

Result<std::uint64_t> Connection::send_request(protocol::Type type, std::span<const std::uint8_t> body,
                                               Deadline deadline) {
    if (fd_ < 0) return make_error(HARNESS_ERR_UNREACHABLE, "connection to " + peer_id_ + " is closed");
    protocol::Header h;
    h.type = static_cast<std::uint8_t>(type);
    h.request_id = next_request_id_++;
    if (body.size() > max_body_) return make_error(HARNESS_ERR_TOO_LARGE, "request body over the maximum");
    if (transport_ == Transport::udp) {
        Bytes frame = encode_frame(h, body);
        if (frame.size() + kSealSize > kUdpMaxDatagram)
            return make_error(HARNESS_ERR_TOO_LARGE, "request too large for one UDP datagram; use TCP");
        udp_->outstanding[h.request_id] = UdpState::Outstanding{std::move(frame), Clock::now(), kUdpFirstRetry};
        inbox_->pending.insert(h.request_id);
        // Sent now (it is due). No receive attempt here: a reply cannot be
        // back within the few microseconds until the caller waits for it.
        if (int err = udp_->send_due(fd_)) {
            abandon(h.request_id);
            return errno_error(("udp " + udp_->peer).c_str(), err);
        }
        return h.request_id;
    }
    auto sent = write_frame(fd_, h, body, deadline);
    if (!sent) {
        close_fd(fd_);  // a frame cut short leaves the stream out of step
        return sent.error();
    }
    inbox_->pending.insert(h.request_id);
    return h.request_id;
}

Clock::time_point Connection::wakeup_time() const {
    auto t = Clock::time_point::max();
    if (udp_)
        for (const auto &[id, o] : udp_->outstanding) t = std::min(t, o.next_send);
    return t;
}

Result<std::optional<Bytes>> Connection::try_receive_reply(std::uint64_t request_id, Deadline deadline) {
    if (inbox_) {
        auto it = inbox_->arrived.find(request_id);
        if (it != inbox_->arrived.end()) {
            Result<Bytes> r = std::move(it->second);
            inbox_->arrived.erase(it);
            inbox_->pending.erase(request_id);
            if (!r) return r.error();
            return std::optional<Bytes>(std::move(*r));
        }
    }
    if (fd_ < 0) return make_error(HARNESS_ERR_UNREACHABLE, "connection to " + peer_id_ + " is closed");
    if (transport_ == Transport::udp) return try_receive_udp(request_id, deadline);
    return try_receive_stream(request_id, deadline);
}

Result<std::optional<Bytes>> Connection::try_receive_stream(std::uint64_t request_id, Deadline deadline) {
    for (;;) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 0) <= 0) return std::optional<Bytes>();
        bool started = false;
        auto frame = read_frame(fd_, max_body_, deadline, &started);
        if (!frame) {
            close_fd(fd_);
            inbox_->pending.clear();
            return frame.error();
        }
        if (!frame->header.is_reply()) continue;  // nothing unsolicited is defined for clients
        std::uint64_t id = frame->header.request_id;
        if (id == request_id) {
            inbox_->pending.erase(id);
            auto r = reply_result(std::move(*frame));
            if (!r) return r.error();
            return std::optional<Bytes>(std::move(*r));
        }
        if (inbox_->pending.count(id)) inbox_->arrived.emplace(id, reply_result(std::move(*frame)));
    }
}

void Connection::abandon(std::uint64_t request_id) {
    if (inbox_) {
        inbox_->pending.erase(request_id);
        inbox_->arrived.erase(request_id);
    }
    if (udp_) udp_->outstanding.erase(request_id);
}

Result<Bytes> Connection::receive_reply(std::uint64_t request_id, Deadline deadline) {
    // The request was sent just now: wait before the first receive instead
    // of paying for a receive attempt that finds nothing (one syscall per call).
    bool wait_first = fd_ >= 0 && inbox_ && !inbox_->arrived.count(request_id);
    for (;;) {
        if (wait_first) {
            wait_first = false;
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, remaining_ms(std::min(wakeup_time(), deadline))) < 0 && errno != EINTR)
                return errno_error("poll", errno);
        }
        auto r = try_receive_reply(request_id, deadline);
        if (!r) return r.error();
        if (r->has_value()) return std::move(**r);
        auto now = Clock::now();
        if (now >= deadline) {
            // Give up on it: a late reply will be dropped, the stream stays usable.
            abandon(request_id);
            std::string who = peer_id_.empty() ? (udp_ ? udp_->peer : std::string("the daemon")) : peer_id_;
            return make_error(HARNESS_ERR_TIMEOUT, "no reply from " + who + " before the deadline");
        }
        auto wake = std::min(wakeup_time(), deadline);
        pollfd p{fd_, POLLIN, 0};
        int n = ::poll(&p, 1, remaining_ms(wake));
        if (n < 0 && errno != EINTR) return errno_error("poll", errno);
    }
}

Result<Bytes> Connection::request(protocol::Type type, std::span<const std::uint8_t> body, Deadline deadline) {
    auto id = send_request(type, body, deadline);
    if (!id) return id.error();
    return receive_reply(*id, deadline);
}

}  // namespace harness::hlib
