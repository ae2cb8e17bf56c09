// harness/common/udp_seal.hpp — MAC and replay protection for UDP datagrams.
//
// A sealed datagram is  frame | sender_nonce u64 | seq u64 | HMAC(key, all before).
// The sender nonce is random per sending process, so a restarted client does
// not collide with its old sequence numbers. The receiver keeps, per sender
// nonce, the highest sequence seen and a 64-entry window behind it, and drops
// anything replayed or older than the window.
#pragma once

#include <harness/common/crypto.hpp>

#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>
#include <vector>

namespace harness {

inline constexpr std::size_t kSealSize = 8 + 8 + protocol::kMacSize;

class UdpSealer {
public:
    explicit UdpSealer(VmKey key);
    // Appends the seal to a frame; returns the datagram.
    std::vector<std::uint8_t> seal(std::span<const std::uint8_t> frame);
    std::uint64_t sender_nonce() const { return nonce_; }

private:
    HmacKey mac_;
    std::uint64_t nonce_;
    std::uint64_t seq_ = 0;
};

struct OpenedDatagram {
    std::span<const std::uint8_t> frame;  // points into the datagram
    std::uint64_t sender_nonce = 0;
    std::uint64_t seq = 0;
};

class UdpOpener {
public:
    explicit UdpOpener(VmKey key, std::size_t max_senders = 4096);
    // Checks the MAC and the replay window. The frame inside is not parsed.
    Result<OpenedDatagram> open(std::span<const std::uint8_t> datagram);

private:
    struct Window {
        std::uint64_t highest = 0;
        std::uint64_t bits = 0;  // bit i: highest - i was seen
        std::list<std::uint64_t>::iterator lru;
    };
    bool accept(std::uint64_t sender, std::uint64_t seq);

    HmacKey mac_;
    std::size_t max_senders_;
    std::unordered_map<std::uint64_t, Window> windows_;
    std::list<std::uint64_t> lru_;  // most recent first; bounds memory
};

}  // namespace harness
