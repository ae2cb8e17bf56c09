#include "udp_endpoint.hpp"

#include "daemon.hpp"

namespace harness::hcore {

namespace asio = boost::asio;
using protocol::Header;
using protocol::Type;

namespace {
constexpr std::size_t kRememberedReplies = 4096;
constexpr auto kRememberFor = std::chrono::seconds(30);
}  // namespace

UdpEndpoint::UdpEndpoint(Daemon &daemon, asio::ip::udp::socket socket, const VmKey &key)
    : daemon_(daemon), socket_(std::move(socket)), sealer_(key), opener_(key) {}

void UdpEndpoint::start() {
    receive();
}

void UdpEndpoint::close() {
    boost::system::error_code ignored;
    socket_.close(ignored);
}

void UdpEndpoint::receive() {
    socket_.async_receive_from(asio::buffer(buffer_), from_,
                               [this](const boost::system::error_code &ec, std::size_t n) {
                                   if (ec == asio::error::operation_aborted || !socket_.is_open()) return;
                                   if (!ec) handle({buffer_.data(), n}, from_);
                                   receive();
                               });
}

void UdpEndpoint::warn_limited(const std::string &message) {
    auto now = std::chrono::steady_clock::now();
    if (now - last_warning_ < std::chrono::seconds(1)) {
        ++suppressed_warnings_;
        return;
    }
    std::string extra =
        suppressed_warnings_ ? " (" + std::to_string(suppressed_warnings_) + " similar suppressed)" : "";
    daemon_.log().warning(message + extra);
    last_warning_ = now;
    suppressed_warnings_ = 0;
}

void UdpEndpoint::send_frame(const asio::ip::udp::endpoint &to, std::span<const std::uint8_t> frame) {
    auto datagram = sealer_.seal(frame);
    boost::system::error_code ec;
    socket_.send_to(asio::buffer(datagram), to, 0, ec);  // UDP send does not block for long
    if (ec) warn_limited("UDP send to " + to.address().to_string() + " failed: " + ec.message());
}

void UdpEndpoint::handle(std::span<const std::uint8_t> datagram, const asio::ip::udp::endpoint &from) {
    // Built only for a warning: this is the UDP fast path.
    auto who = [&] { return from.address().to_string() + ":" + std::to_string(from.port()); };
    auto opened = opener_.open(datagram);
    if (!opened) return warn_limited("dropped datagram from " + who() + ": " + opened.error().message);
    auto h = protocol::decode_header(opened->frame, static_cast<std::uint32_t>(opened->frame.size()));
    if (!h || protocol::kHeaderSize + h->body_len != opened->frame.size())
        return warn_limited("dropped malformed datagram from " + who());
    auto body = opened->frame.subspan(protocol::kHeaderSize);
    if (h->type == static_cast<std::uint8_t>(Type::heartbeat)) return daemon_.handle_heartbeat(body);
    if (h->is_reply()) return;
    if (h->body_len > daemon_.max_body()) {
        // --max-message holds for UDP as for streams; answer, so the client stops retrying.
        Packer p;
        p.str("request body of " + std::to_string(h->body_len) + " bytes exceeds the maximum of " +
              std::to_string(daemon_.max_body()));
        Header refusal{h->type, protocol::kFlagReply, h->request_id, static_cast<std::uint32_t>(p.size()),
                       HARNESS_ERR_TOO_LARGE};
        auto rh = protocol::encode_header(refusal);
        Bytes frame(rh.begin(), rh.end());
        frame.insert(frame.end(), p.view().begin(), p.view().end());
        return send_frame(from, frame);
    }

    Key key{opened->sender_nonce, h->request_id};
    if (auto it = replies_.find(key); it != replies_.end()) {
        if (it->second.reply_frame) send_frame(from, *it->second.reply_frame);
        return;  // still running: the reply goes out when it is done
    }
    forget_old();
    replies_[key] = Remembered{std::nullopt, std::chrono::steady_clock::now()};
    reply_order_.push_back(key);
    Header reply{h->type, protocol::kFlagReply, h->request_id, 0, 0};
    daemon_.handle_request(*h, body, Via::udp, nullptr, [this, key, reply, from](Reply r) mutable {
        reply.status = r.status;
        reply.body_len = static_cast<std::uint32_t>(r.body.size());
        auto hb = protocol::encode_header(reply);
        Bytes frame(hb.begin(), hb.end());
        frame.insert(frame.end(), r.body.begin(), r.body.end());
        if (frame.size() + kSealSize > 65507) {
            Packer p;
            p.str("the reply is too large for UDP; call over TCP");
            reply.status = HARNESS_ERR_TOO_LARGE;
            reply.body_len = static_cast<std::uint32_t>(p.size());
            auto eh = protocol::encode_header(reply);
            frame.assign(eh.begin(), eh.end());
            frame.insert(frame.end(), p.view().begin(), p.view().end());
        }
        send_frame(from, frame);
        remember(key, std::move(frame));
    });
}

void UdpEndpoint::remember(const Key &key, Bytes frame) {
    if (auto it = replies_.find(key); it != replies_.end()) it->second.reply_frame = std::move(frame);
}

void UdpEndpoint::forget_old() {
    auto now = std::chrono::steady_clock::now();
    while (!reply_order_.empty()) {
        auto it = replies_.find(reply_order_.front());
        bool expired = it == replies_.end() || now - it->second.at > kRememberFor;
        bool full = replies_.size() >= kRememberedReplies;
        // Never drop a call that is still running: its completion looks it up.
        if (!(expired || full) || (it != replies_.end() && !it->second.reply_frame)) break;
        if (it != replies_.end()) replies_.erase(it);
        reply_order_.pop_front();
    }
}

}  // namespace harness::hcore
