// hlib/src/handshake.hpp — the client side of the connection handshake (internal).
#pragma once

#include "io.hpp"

#include <harness/common/crypto.hpp>

#include <string>

namespace harness::hlib::detail {

struct HandshakeResult {
    std::string vm;
    std::string server_id;
};

// HELLO → AUTH → AUTH_OK as protocol.hpp describes. Mutual: the daemon's
// AUTH_OK proof is checked, so a peer without the VM key is refused too.
Result<HandshakeResult> client_handshake(int fd, const VmKey &key, std::uint32_t max_body, Clock::time_point deadline);

// What this process calls itself in AUTH: "hlib:<host>:<pid>".
std::string client_id();

}  // namespace harness::hlib::detail
