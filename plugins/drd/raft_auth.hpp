// raft_auth.hpp — the mutual HMAC challenge that opens every raft connection.
//
// c-raft's own TCP transport lets anyone who can reach the port inject raft
// messages, so the DRD's transport (auth_transport.hpp) runs this exchange on
// each new connection before raft sees the stream. Fixed-size messages, so a
// reader never consumes a byte of the raft traffic that follows:
//
//   client → C1  "DRDAUTH1" | client_nonce[32]                         40 bytes
//   server → S1  server_nonce[32] | server_id u64 | mac_s[32]          72 bytes
//                mac_s = HMAC(key, "drd-raft-server" | client_nonce | server_nonce | server_id)
//   client → C2  client_id u64 | client_address[64, zero padded] | mac_c[32]   104 bytes
//                mac_c = HMAC(key, "drd-raft-client" | server_nonce | client_nonce | client_id | address)
//   server → S2  1 byte: 1 = accepted (a refusal just closes the connection)
//
// The server proves itself first, to a nonce of the client's choosing; the
// labels differ, so neither MAC can be replayed as the other. The client
// also checks that the server is the raft id it meant to reach.
#pragma once

#include <harness/common/crypto.hpp>
#include <harness/common/result.hpp>

#include <array>
#include <cstdint>
#include <string>

namespace harness::drd::auth {

inline constexpr std::size_t kClientHelloSize = 40;
inline constexpr std::size_t kServerHelloSize = 72;
inline constexpr std::size_t kAddressField = 64;
inline constexpr std::size_t kClientAuthSize = 8 + kAddressField + 32;
inline constexpr std::size_t kServerOkSize = 1;

using ClientHello = std::array<std::uint8_t, kClientHelloSize>;
using ServerHello = std::array<std::uint8_t, kServerHelloSize>;
using ClientAuth = std::array<std::uint8_t, kClientAuthSize>;

ClientHello make_client_hello(const Nonce &client_nonce);
// Server side: checks C1's magic and answers with S1.
Result<ServerHello> answer_client_hello(const VmKey &key, const ClientHello &hello, std::uint64_t server_id,
                                        const Nonce &server_nonce);
// Client side: checks S1 (the server's MAC, and its id when expected_id != 0)
// and produces C2.
Result<ClientAuth> answer_server_hello(const VmKey &key, const ClientHello &hello, const ServerHello &reply,
                                       std::uint64_t expected_id, std::uint64_t client_id,
                                       const std::string &client_address);

// C2 without checking S1 (answer_server_hello checks first; tests use this
// to play a client that does not hold the key).
Result<ClientAuth> make_client_auth(const VmKey &key, const ClientHello &hello, const ServerHello &reply,
                                    std::uint64_t client_id, const std::string &client_address);

struct Peer {
    std::uint64_t id = 0;
    std::string address;
};
// Server side: checks C2 against the nonces it knows; returns who connected.
Result<Peer> check_client_auth(const VmKey &key, const ClientHello &hello, const ServerHello &server_hello,
                               const ClientAuth &auth);

}  // namespace harness::drd::auth
