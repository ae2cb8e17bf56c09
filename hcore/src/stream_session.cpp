#include "stream_session.hpp"

#include "daemon.hpp"

#include <boost/asio/write.hpp>

#include <array>
#include <cstring>
#include <sys/socket.h>
#include <sys/time.h>

namespace harness::hcore {

namespace asio = boost::asio;
using protocol::Header;
using protocol::Type;

namespace {
constexpr std::size_t kReadChunk = 64 * 1024;

// SO_RCVTIMEO/SO_SNDTIMEO for a RAW plugin's blocking I/O; 0 clears them.
void set_io_timeout(int fd, std::chrono::milliseconds timeout) {
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}
}  // namespace

template <class Socket>
StreamSession<Socket>::StreamSession(Daemon &daemon, Socket socket, Via via, std::string peer)
    : daemon_(daemon), socket_(std::move(socket)), auth_deadline_(socket_.get_executor()), via_(via),
      peer_(std::move(peer)) {
    daemon_.session_opened();
}

template <class Socket>
StreamSession<Socket>::~StreamSession() {
    daemon_.session_closed();
}

template <class Socket>
void StreamSession<Socket>::arm_auth_deadline() {
    // A connection that never authenticates would hold a descriptor forever.
    auth_deadline_.expires_after(daemon_.auth_timeout());
    auth_deadline_.async_wait([weak = this->weak_from_this()](const boost::system::error_code &ec) {
        auto self = weak.lock();
        if (ec || !self || self->authenticated_) return;
        self->daemon_.log().warning("closing connection from " + self->peer_ + ": no authentication within " +
                                    std::to_string(self->daemon_.auth_timeout().count()) + " ms");
        self->close();
    });
}

template <class Socket>
void StreamSession<Socket>::start() {
    random_bytes(server_nonce_);
    Packer p;
    p.str(daemon_.vm()).str(daemon_.id()).bytes(server_nonce_);
    send(Header{static_cast<std::uint8_t>(Type::hello), 0, 0, 0, 0}, p.take(), false);
    arm_auth_deadline();
    read_more();
}

template <class Socket>
void StreamSession<Socket>::read_more() {
    // One read at a time: a second one would target the same bytes of in_,
    // survive a resize of in_, and steal a RAW plugin's input.
    if (closing_ || reading_) return;
    // Compact, then make room for at least one more chunk.
    if (in_start_ > 0) {
        std::memmove(in_.data(), in_.data() + in_start_, in_end_ - in_start_);
        in_end_ -= in_start_;
        in_start_ = 0;
    }
    // A large frame grew the buffer; give the memory back once it is consumed.
    if (in_end_ == 0 && in_.size() > 16 * kReadChunk) Bytes(kReadChunk).swap(in_);
    if (in_.size() < in_end_ + kReadChunk) in_.resize(in_end_ + kReadChunk);
    reading_ = true;
    socket_.async_read_some(asio::buffer(in_.data() + in_end_, in_.size() - in_end_),
                            [self = this->shared_from_this()](const boost::system::error_code &ec, std::size_t n) {
                                self->reading_ = false;
                                if (ec) return self->close();
                                self->in_end_ += n;
                                self->process_buffer();
                            });
}

template <class Socket>
void StreamSession<Socket>::process_buffer() {
    // A read is outstanding only while in_ holds no complete frame; its
    // completion comes back here. Until then in_ must not be touched (resized).
    if (reading_) return;
    while (!busy_ && !closing_) {
        std::span<const std::uint8_t> avail(in_.data() + in_start_, in_end_ - in_start_);
        if (avail.size() < protocol::kHeaderSize) return read_more();
        auto h = protocol::decode_header(avail, daemon_.max_body());
        if (!h) {
            // The stream cannot be resynchronized after a bad header: say why and close.
            daemon_.log().warning("closing connection from " + peer_ + ": " + h.error().describe());
            Header bad{0, 0, 0, 0, 0};
            if (avail.size() >= protocol::kHeaderSize) {
                bad.type = avail[5];
                bad.request_id = harness_get_le(&avail[8], 8);
            }
            return reply_error(bad, h.error().status, h.error().message, true);
        }
        std::size_t total = protocol::kHeaderSize + h->body_len;
        if (avail.size() < total) {
            if (in_.size() < in_start_ + total) in_.resize(in_start_ + total);
            return read_more();
        }
        auto body = avail.subspan(protocol::kHeaderSize, h->body_len);
        in_start_ += total;
        handle_frame(*h, body);
    }
}

template <class Socket>
void StreamSession<Socket>::handle_frame(const Header &h, std::span<const std::uint8_t> body) {
    if (!authenticated_) return handle_auth(h, body);
    if (h.is_reply()) return reply_error(h, HARNESS_ERR_PROTOCOL, "unexpected reply frame from a client", false);
    busy_ = true;
    current_request_id_ = h.request_id;
    Header reply{h.type, protocol::kFlagReply, h.request_id, 0, 0};
    // body points into in_, which is not touched until busy_ clears.
    daemon_.handle_request(h, body, via_, this, [self = this->shared_from_this(), reply](Reply r) mutable {
        reply.status = r.status;
        self->busy_ = false;
        self->send(reply, std::move(r.body), false);
    });
}

template <class Socket>
void StreamSession<Socket>::handle_auth(const Header &h, std::span<const std::uint8_t> body) {
    if (h.type != static_cast<std::uint8_t>(Type::auth)) {
        daemon_.log().warning("refused " + std::string(protocol::type_name(h.type)) + " from unauthenticated " + peer_);
        return reply_error(h, HARNESS_ERR_AUTH, "authenticate with the VM key first", true);
    }
    Unpacker u(body);
    std::span<const std::uint8_t> client_nonce, mac;
    std::string client_id;
    if (!u.bytes(client_nonce) || !u.bytes(mac) || !u.str(client_id) || client_nonce.size() != protocol::kNonceSize) {
        daemon_.log().warning("malformed authentication from " + peer_);
        return reply_error(h, HARNESS_ERR_PROTOCOL, "malformed authentication", true);
    }
    Mac expected = client_proof(daemon_.key(), daemon_.vm(), server_nonce_, client_nonce);
    if (!equal_constant_time(expected, mac)) {
        daemon_.log().warning("authentication failed for " + peer_ + " (wrong VM key or VM name)");
        return reply_error(h, HARNESS_ERR_AUTH, "wrong VM key or VM name", true);
    }
    authenticated_ = true;
    auth_deadline_.cancel();
    Mac proof = server_proof(daemon_.key(), daemon_.vm(), client_nonce, server_nonce_);
    Packer p;
    p.bytes(proof);
    send(Header{static_cast<std::uint8_t>(Type::auth_ok), protocol::kFlagReply, h.request_id, 0, 0}, p.take(), false);
}

template <class Socket>
void StreamSession<Socket>::reply_error(const Header &request, int status, const std::string &message,
                                        bool close_after) {
    Packer p;
    p.str(message);
    send(Header{request.type, protocol::kFlagReply, request.request_id, 0, status}, p.take(), close_after);
}

template <class Socket>
void StreamSession<Socket>::send(const Header &h, Bytes body, bool close_after) {
    Header header = h;
    header.body_len = static_cast<std::uint32_t>(body.size());
    auto data =
        std::make_shared<std::pair<protocol::HeaderBytes, Bytes>>(protocol::encode_header(header), std::move(body));
    busy_ = true;
    if (close_after) closing_ = true;
    std::array<asio::const_buffer, 2> bufs{asio::buffer(data->first), asio::buffer(data->second)};
    asio::async_write(socket_, bufs, [self = this->shared_from_this(), data, close_after](auto ec, std::size_t) {
        self->busy_ = false;
        if (ec || close_after) return self->close();
        self->process_buffer();
    });
}

template <class Socket>
void StreamSession<Socket>::close() {
    closing_ = true;
    boost::system::error_code ignored;
    socket_.shutdown(Socket::shutdown_both, ignored);
    socket_.close(ignored);
}

template <class Socket>
int StreamSession<Socket>::begin(std::chrono::milliseconds io_timeout) {
    // The go-ahead frame is written synchronously: the client sends nothing
    // until it arrives, so no raw bytes can have been buffered by us.
    Header go{static_cast<std::uint8_t>(Type::call), protocol::kFlagRawStart, current_request_id_, 0, 0};
    auto bytes = protocol::encode_header(go);
    boost::system::error_code ec;
    socket_.native_non_blocking(false, ec);
    set_io_timeout(socket_.native_handle(), io_timeout);
    asio::write(socket_, asio::buffer(bytes), ec);
    return ec ? -1 : socket_.native_handle();
}

template <class Socket>
void StreamSession<Socket>::end() {
    boost::system::error_code ec;
    set_io_timeout(socket_.native_handle(), std::chrono::milliseconds(0));
    socket_.native_non_blocking(true, ec);
}

template class StreamSession<asio::ip::tcp::socket>;
template class StreamSession<asio::local::stream_protocol::socket>;

}  // namespace harness::hcore
