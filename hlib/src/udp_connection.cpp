// Connection over UDP: no handshake; each request is one sealed datagram,
// resent (resealed, same request id) with doubling backoff until a sealed
// reply with that id arrives or the caller's deadline passes. The daemon
// answers a repeated request id from its replay cache, so resending is safe.
#include "connection_state.hpp"
#include "frame.hpp"
#include "io.hpp"

#include <cerrno>

namespace harness::hlib {

using namespace detail;

Result<Connection> Connection::open_udp(const Endpoint &where, const VmKey &key, Deadline) {
    auto fd = connect_udp(where);
    if (!fd) return fd.error();
    Connection c;
    c.fd_ = *fd;
    c.transport_ = Transport::udp;
    c.udp_ = std::make_unique<UdpState>(key);
    c.udp_->peer = where.to_string();
    c.inbox_ = std::make_unique<Inbox>();
    // Random first id: a daemon's replay cache must not confuse our requests
    // with those of another client (or of this one before a restart).
    c.next_request_id_ = (random_u64() >> 2) + 1;
    return c;
}

int Connection::UdpState::send_due(int fd) {
    auto now = Clock::now();
    for (auto &[id, o] : outstanding) {
        if (o.next_send > now) continue;
        Bytes datagram = sealer.seal(o.frame);
        ssize_t n = ::send(fd, datagram.data(), datagram.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == ECONNREFUSED) return errno;
        // Other send errors (buffer full) count as a lost datagram: retried.
        o.next_send = now + o.backoff;
        o.backoff = std::min(o.backoff * 2, kUdpMaxRetry);
    }
    return 0;
}

Result<std::optional<Bytes>> Connection::try_receive_udp(std::uint64_t request_id, Deadline) {
    auto unreachable = [&](int err) -> Error {
        inbox_->pending.erase(request_id);
        udp_->outstanding.erase(request_id);
        return errno_error(("udp " + udp_->peer).c_str(), err);
    };

    if (int err = udp_->send_due(fd_)) return unreachable(err);

    std::vector<std::uint8_t> &buffer = udp_->buffer;
    for (;;) {
        ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return std::optional<Bytes>();
            return unreachable(errno);  // ECONNREFUSED: ICMP port unreachable
        }
        std::span<const std::uint8_t> datagram(buffer.data(), static_cast<std::size_t>(n));
        auto opened = udp_->opener.open(datagram);
        if (!opened) continue;  // forged, replayed or from another VM: dropped
        auto frame = decode_frame(opened->frame, max_body_);
        if (!frame || !frame->header.is_reply()) continue;
        std::uint64_t id = frame->header.request_id;
        if (!inbox_->pending.count(id)) continue;  // a duplicate answer to a resend
        udp_->outstanding.erase(id);
        if (id == request_id) {
            inbox_->pending.erase(id);
            auto r = reply_result(std::move(*frame));
            if (!r) return r.error();
            return std::optional<Bytes>(std::move(*r));
        }
        inbox_->arrived.emplace(id, reply_result(std::move(*frame)));
    }
}

}  // namespace harness::hlib
