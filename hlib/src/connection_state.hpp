// hlib/src/connection_state.hpp — Connection's private parts (internal).
#pragma once

#include <harness/common/udp_seal.hpp>
#include <harness/hlib/hlib.hpp>

#include <map>
#include <set>

namespace harness::hlib {

// Requests sent and not yet answered, and replies that came in while the
// caller was waiting for another request on the same connection. A reply to
// an id not pending (its caller gave up) is dropped.
struct Connection::Inbox {
    std::set<std::uint64_t> pending;
    std::map<std::uint64_t, Result<Bytes>> arrived;
};

struct Connection::UdpState {
    struct Outstanding {
        Bytes frame;  // resealed on each send: the daemon drops replayed seals
        Clock::time_point next_send;
        std::chrono::milliseconds backoff;
    };
    UdpState(const VmKey &key) : sealer(key), opener(key) {}
    // Sends (resealed) every outstanding request whose time has come; 0, or
    // the errno that makes the peer unreachable (ECONNREFUSED).
    int send_due(int fd);
    UdpSealer sealer;
    UdpOpener opener;
    std::string peer;  // HOST:PORT, for messages
    std::map<std::uint64_t, Outstanding> outstanding;
    std::vector<std::uint8_t> buffer = std::vector<std::uint8_t>(65536);  // one datagram
};

namespace detail {
inline constexpr std::chrono::milliseconds kUdpFirstRetry{20};
inline constexpr std::chrono::milliseconds kUdpMaxRetry{640};
inline constexpr std::size_t kUdpMaxDatagram = 65507;
}  // namespace detail

}  // namespace harness::hlib
