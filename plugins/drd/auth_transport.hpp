// auth_transport.hpp — a raft_uv_transport that authenticates every connection.
//
// Replaces c-raft's TCP transport: it listens and connects with libuv itself
// and runs the mutual HMAC challenge of raft_auth.hpp on each new stream;
// only a stream whose peer proved it holds the VM key reaches raft (with the
// raft id and address the peer authenticated). Anything else is refused,
// logged and closed; a handshake that stalls is cut off after a timeout.
// Everything runs on the raft node's libuv loop thread.
#pragma once

#include <harness/common/crypto.hpp>

#include <uv.h>
// c-raft's headers declare C functions without extern "C" guards.
extern "C" {
#include <raft.h>
#include <raft/uv.h>
}

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace harness::drd {

struct AuthTransportOptions {
    VmKey key;
    // level: 0 debug, 1 info, 2 warning, 3 error (the host API's levels).
    std::function<void(int level, const std::string &message)> log;
    std::chrono::milliseconds handshake_timeout{3000};
};

// Sets up t with our implementation on loop. 0 or a RAFT_* error.
int auth_transport_init(raft_uv_transport *t, uv_loop_t *loop, AuthTransportOptions options);
// Binds the listening socket now (port 0 picks one), so the raft address is
// known before raft_init; *bound_port is the port taken. 0 or RAFT_IOERR
// with t->errmsg set.
int auth_transport_bind(raft_uv_transport *t, const std::string &host, std::uint16_t port, std::uint16_t *bound_port);
// Frees what init allocated; only after the transport's close callback ran
// (or when it was never used).
void auth_transport_free(raft_uv_transport *t);

}  // namespace harness::drd
