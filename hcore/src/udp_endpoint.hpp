// The daemon's UDP side: sealed requests from clients and heartbeats from
// members on one socket (the same port as TCP).
//
// Datagrams that fail the MAC or replay check are dropped and logged (rate
// limited: an attacker must not be able to flood the log). Requests are
// idempotent by (sender nonce, request id): a retry of a request still running
// is ignored, a retry of a finished one gets the remembered reply again, so a
// client may resend until it hears back.
#pragma once

#include "request_context.hpp"

#include <harness/common/udp_seal.hpp>

#include <boost/asio/ip/udp.hpp>

#include <chrono>
#include <deque>
#include <optional>
#include <unordered_map>

namespace harness::hcore {

class Daemon;

class UdpEndpoint {
public:
    UdpEndpoint(Daemon &daemon, boost::asio::ip::udp::socket socket, const VmKey &key);
    void start();
    void send_frame(const boost::asio::ip::udp::endpoint &to, std::span<const std::uint8_t> frame);
    void close();

private:
    struct Key {
        std::uint64_t sender;
        std::uint64_t request_id;
        bool operator==(const Key &) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key &k) const {
            return std::hash<std::uint64_t>{}(k.sender * 0x9E3779B97F4A7C15ull ^ k.request_id);
        }
    };
    struct Remembered {
        std::optional<Bytes> reply_frame;  // empty while the call runs
        std::chrono::steady_clock::time_point at;
    };

    void receive();
    void handle(std::span<const std::uint8_t> datagram, const boost::asio::ip::udp::endpoint &from);
    void remember(const Key &key, Bytes frame);
    void forget_old();
    void warn_limited(const std::string &message);

    Daemon &daemon_;
    boost::asio::ip::udp::socket socket_;
    UdpSealer sealer_;
    UdpOpener opener_;
    std::array<std::uint8_t, 65536> buffer_{};
    boost::asio::ip::udp::endpoint from_;
    std::unordered_map<Key, Remembered, KeyHash> replies_;
    std::deque<Key> reply_order_;
    std::chrono::steady_clock::time_point last_warning_{};
    unsigned suppressed_warnings_ = 0;
};

}  // namespace harness::hcore
