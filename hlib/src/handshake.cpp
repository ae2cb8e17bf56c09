#include "handshake.hpp"

#include "frame.hpp"

#include <harness/common/protocol.hpp>

#include <unistd.h>

namespace harness::hlib::detail {

std::string client_id() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    return std::string("hlib:") + host + ":" + std::to_string(::getpid());
}

Result<HandshakeResult> client_handshake(int fd, const VmKey &key, std::uint32_t max_body, Clock::time_point deadline) {
    using protocol::Type;
    auto hello = read_frame(fd, max_body, deadline, nullptr);
    if (!hello) return hello.error();
    if (hello->header.type != static_cast<std::uint8_t>(Type::hello))
        return make_error(HARNESS_ERR_PROTOCOL,
                          std::string("expected HELLO from the daemon, got ") +
                              protocol::type_name(hello->header.type));
    HandshakeResult r;
    std::span<const std::uint8_t> server_nonce;
    Unpacker u(hello->body);
    if (!u.str(r.vm) || !u.str(r.server_id) || !u.bytes(server_nonce) || server_nonce.size() != protocol::kNonceSize)
        return make_error(HARNESS_ERR_PROTOCOL, "malformed HELLO");

    Nonce client_nonce{};
    random_bytes(client_nonce);
    Mac proof = client_proof(key, r.vm, server_nonce, client_nonce);
    Packer auth;
    auth.bytes(client_nonce).bytes(proof).str(client_id());
    protocol::Header h;
    h.type = static_cast<std::uint8_t>(Type::auth);
    auto sent = write_frame(fd, h, auth.view(), deadline);
    if (!sent) return sent.error();

    auto ok = read_frame(fd, max_body, deadline, nullptr);
    if (!ok) {
        // A daemon that rejects our proof closes the connection.
        if (ok.error().status == HARNESS_ERR_UNREACHABLE)
            return make_error(HARNESS_ERR_AUTH,
                              "the daemon closed the connection during authentication "
                              "(wrong VM key?)");
        return ok.error();
    }
    if (ok->header.status != HARNESS_OK) {
        auto failed = reply_result(std::move(*ok));
        return make_error(HARNESS_ERR_AUTH, "daemon refused authentication: " + failed.error().message);
    }
    if (ok->header.type != static_cast<std::uint8_t>(Type::auth_ok))
        return make_error(HARNESS_ERR_PROTOCOL,
                          std::string("expected AUTH_OK from the daemon, got ") + protocol::type_name(ok->header.type));
    std::span<const std::uint8_t> server_mac;
    Unpacker v(ok->body);
    if (!v.bytes(server_mac)) return make_error(HARNESS_ERR_PROTOCOL, "malformed AUTH_OK");
    Mac expected = server_proof(key, r.vm, client_nonce, server_nonce);
    if (!equal_constant_time(expected, server_mac))
        return make_error(HARNESS_ERR_AUTH, "the daemon failed to prove it holds the VM key");
    return r;
}

}  // namespace harness::hlib::detail
