// harness/common/crypto.hpp — HMAC-SHA256, SHA-256, randomness and the VM key.
//
// Every peer of a VM proves it holds the VM key (protocol.hpp's challenge and
// udp_seal.hpp's datagram MAC). The key file holds 32 random bytes as hex;
// hcored creates it with mode 0600 when absent, tools only read it.
#pragma once

#include <harness/common/protocol.hpp>
#include <harness/common/result.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace harness {

using Mac = std::array<std::uint8_t, protocol::kMacSize>;
using Nonce = std::array<std::uint8_t, protocol::kNonceSize>;

struct VmKey {
    std::vector<std::uint8_t> bytes;
};

// HMAC-SHA256 with the key set up once, for MACs on every message (UDP
// seals): the one-shot hmac_sha256 below costs ~3.5 µs with OpenSSL 3, which
// fetches and initialises the MAC on every call; this costs ~0.3 µs. One
// instance must not be used by two threads at once.
class HmacKey {
public:
    explicit HmacKey(const VmKey &key);
    HmacKey(HmacKey &&) noexcept;
    HmacKey &operator=(HmacKey &&) noexcept;
    ~HmacKey();
    Mac mac(std::span<const std::uint8_t> data);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// HMAC-SHA256 over the concatenation of parts.
Mac hmac_sha256(const VmKey &key, std::initializer_list<std::span<const std::uint8_t>> parts);
std::array<std::uint8_t, 32> sha256(std::span<const std::uint8_t> data);
bool equal_constant_time(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);
void random_bytes(std::span<std::uint8_t> out);
std::uint64_t random_u64();
std::string to_hex(std::span<const std::uint8_t> bytes);

// Reads a key file (hex, at least 16 bytes). Refuses a file readable by others.
Result<VmKey> load_key(const std::filesystem::path &file);
// Reads the key, or creates a new random one with mode 0600 when absent.
Result<VmKey> load_or_create_key(const std::filesystem::path &file);

// The challenge MACs of the connection handshake (see protocol.hpp).
Mac client_proof(const VmKey &key, std::string_view vm, std::span<const std::uint8_t> server_nonce,
                 std::span<const std::uint8_t> client_nonce);
Mac server_proof(const VmKey &key, std::string_view vm, std::span<const std::uint8_t> client_nonce,
                 std::span<const std::uint8_t> server_nonce);

}  // namespace harness
