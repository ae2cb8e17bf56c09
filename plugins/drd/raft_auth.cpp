#include "raft_auth.hpp"

#include <harness/common/plugin.h>

#include <cstring>
#include <span>
#include <string_view>

namespace harness::drd::auth {

namespace {

constexpr std::string_view kMagic = "DRDAUTH1";
constexpr std::string_view kServerLabel = "drd-raft-server";
constexpr std::string_view kClientLabel = "drd-raft-client";

std::span<const std::uint8_t> as_bytes(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t *>(s.data()), s.size()};
}

std::array<std::uint8_t, 8> le64(std::uint64_t v) {
    std::array<std::uint8_t, 8> out{};
    harness_put_le(out.data(), v, 8);
    return out;
}

}  // namespace

ClientHello make_client_hello(const Nonce &client_nonce) {
    ClientHello h{};
    std::memcpy(h.data(), kMagic.data(), kMagic.size());
    std::memcpy(h.data() + 8, client_nonce.data(), client_nonce.size());
    return h;
}

Result<ServerHello> answer_client_hello(const VmKey &key, const ClientHello &hello, std::uint64_t server_id,
                                        const Nonce &server_nonce) {
    if (std::memcmp(hello.data(), kMagic.data(), kMagic.size()) != 0)
        return make_error(HARNESS_ERR_PROTOCOL, "not a DRD raft client (bad magic)");
    ServerHello s{};
    auto id = le64(server_id);
    std::span<const std::uint8_t> client_nonce(hello.data() + 8, 32);
    Mac mac = hmac_sha256(key, {as_bytes(kServerLabel), client_nonce, server_nonce, id});
    std::memcpy(s.data(), server_nonce.data(), 32);
    std::memcpy(s.data() + 32, id.data(), 8);
    std::memcpy(s.data() + 40, mac.data(), 32);
    return s;
}

Result<ClientAuth> answer_server_hello(const VmKey &key, const ClientHello &hello, const ServerHello &reply,
                                       std::uint64_t expected_id, std::uint64_t client_id,
                                       const std::string &client_address) {
    std::span<const std::uint8_t> client_nonce(hello.data() + 8, 32);
    std::span<const std::uint8_t> server_nonce(reply.data(), 32);
    std::span<const std::uint8_t> id(reply.data() + 32, 8);
    Mac expected = hmac_sha256(key, {as_bytes(kServerLabel), client_nonce, server_nonce, id});
    if (!equal_constant_time(expected, std::span<const std::uint8_t>(reply.data() + 40, 32)))
        return make_error(HARNESS_ERR_AUTH, "the raft peer failed to prove it holds the VM key");
    std::uint64_t server_id = harness_get_le(id.data(), 8);
    if (expected_id != 0 && server_id != expected_id)
        return make_error(HARNESS_ERR_AUTH,
                          "reached raft server " + std::to_string(server_id) + ", wanted " +
                              std::to_string(expected_id));
    return make_client_auth(key, hello, reply, client_id, client_address);
}

Result<ClientAuth> make_client_auth(const VmKey &key, const ClientHello &hello, const ServerHello &reply,
                                    std::uint64_t client_id, const std::string &client_address) {
    std::span<const std::uint8_t> client_nonce(hello.data() + 8, 32);
    std::span<const std::uint8_t> server_nonce(reply.data(), 32);
    if (client_address.size() >= kAddressField)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "raft address too long: " + client_address);
    ClientAuth a{};
    auto cid = le64(client_id);
    std::memcpy(a.data(), cid.data(), 8);
    std::memcpy(a.data() + 8, client_address.data(), client_address.size());
    std::span<const std::uint8_t> address(a.data() + 8, kAddressField);
    Mac mac = hmac_sha256(key, {as_bytes(kClientLabel), server_nonce, client_nonce, cid, address});
    std::memcpy(a.data() + 8 + kAddressField, mac.data(), 32);
    return a;
}

Result<Peer> check_client_auth(const VmKey &key, const ClientHello &hello, const ServerHello &server_hello,
                               const ClientAuth &auth) {
    std::span<const std::uint8_t> client_nonce(hello.data() + 8, 32);
    std::span<const std::uint8_t> server_nonce(server_hello.data(), 32);
    std::span<const std::uint8_t> cid(auth.data(), 8);
    std::span<const std::uint8_t> address(auth.data() + 8, kAddressField);
    Mac expected = hmac_sha256(key, {as_bytes(kClientLabel), server_nonce, client_nonce, cid, address});
    if (!equal_constant_time(expected, std::span<const std::uint8_t>(auth.data() + 8 + kAddressField, 32)))
        return make_error(HARNESS_ERR_AUTH, "the raft client failed to prove it holds the VM key");
    Peer p;
    p.id = harness_get_le(cid.data(), 8);
    const char *text = reinterpret_cast<const char *>(address.data());
    p.address.assign(text, strnlen(text, kAddressField));
    if (p.id == 0) return make_error(HARNESS_ERR_PROTOCOL, "raft client sent id 0");
    return p;
}

}  // namespace harness::drd::auth
