// harness/common/protocol.hpp — the wire protocol between hcored daemons and clients.
//
// Every TCP or Unix-socket message is a frame: a fixed 24-byte header followed
// by a body encoded with the pack buffer. UDP datagrams are one frame followed
// by a seal (sender nonce, sequence number, HMAC; see udp_seal.hpp).
//
// Header, little-endian:  magic u32 | version u8 | type u8 | flags u16 |
//                         request_id u64 | body_len u32 | status i32
// A reply repeats the request's type and id with FLAG_REPLY set; status is a
// harness_status, and a failed reply's body is one str, the message.
//
// Connections open with a mutual HMAC-SHA256 challenge on the VM key:
//   server → HELLO  { str vm, str server_id, bytes server_nonce[32] }
//   client → AUTH   { bytes client_nonce[32], bytes mac, str client_id }
//            mac = HMAC(key, "harness-client" | vm | server_nonce | client_nonce)
//   server → AUTH_OK{ bytes mac } mac = HMAC(key, "harness-server" | vm | client_nonce | server_nonce)
// Anything before AUTH_OK other than AUTH is refused and the connection closed.
//
// Request bodies (replies in brackets):
//   PING      {}                                             [{}]
//   LOAD      { str pkg, str comp }                          [{ str version }]
//   CALL      { str pkg, str comp, str fn, i32 mode, i32 convention, bytes args }
//             [{ bytes result }] — RAW calls hand the socket to the plugin
//             between request and reply: the daemon first sends a bare CALL
//             header with kFlagRawStart, then the plugin speaks, then the
//             final reply frame follows.
//   RESOLVE   { str pkg, str comp }
//             [{ str so_path, str manifest_path, str version, str origin }] —
//             finds an application-level component for a process on this
//             host (lib → plugin path → cache → signed repositories, the
//             same resolver and trust policy as LOAD) without loading it into
//             the daemon; the paths are the daemon's local files. A
//             daemon-level component is refused. TCP and Unix socket only.
//   MEMBERS   {}            [{ u64 n, n × (str id, str tcp, str udp, i32 state, i64 silent_ms) }]
//   LOADED    {}            [{ u64 n, n × component }] with
//             component = str pkg, str comp, str version, i32 level, i32 policy,
//                         u64 m, m × (str fn, i32 convention, i32 default_mode, str signature)
//   LOCATE    { str pkg, str comp }                          [{ u64 n, n × str member_id }]
//   JOIN      { str vm, str id, str tcp, str udp }           [MEMBERS reply body]
//   ADD       { str host_port }                              [{ str new_member_id }]
//   INVITE    { str join_host_port }                         [{ str my_id }]
//   HALT      { bool whole_vm }                              [{}]
//   CLAIM     { str pkg, str comp, str member_id }           [{}] or ALREADY_IN_VM —
//             asks the VM's coordinator (the live member with the smallest
//             id) to record who holds a one-per-VM component, so two daemons
//             loading it at the same moment cannot both succeed.
//   PUBLISH   { str repo_url, bool forwarded, u64 n, n × (str pkg, str comp,
//             str version, str info_json) }                  [{}]
//             hpublish tells the VM where published plugins can be fetched
//             and how they are called; the daemon that receives it forwards
//             it (forwarded = true) to every live member.
//   PUBLISHED {}  [{ u64 n, n × (str repo_url, str pkg, str comp, str version, str info_json) }]
//   HEARTBEAT (UDP only) { str vm, str id, str tcp, str udp, u64 incarnation,
//             u64 n, n × (str id, str tcp, str udp), u64 m, m × (str pkg, str comp) }
#pragma once

#include <harness/common/result.hpp>

#include <array>
#include <cstdint>
#include <span>

namespace harness::protocol {

inline constexpr std::uint32_t kMagic = 0x534E5248;  // "HRNS" on the wire
inline constexpr std::uint8_t kVersion = 1;
inline constexpr std::size_t kHeaderSize = 24;
inline constexpr std::size_t kNonceSize = 32;
inline constexpr std::size_t kMacSize = 32;
inline constexpr std::uint32_t kDefaultMaxBody = 16u << 20;  // 16 MiB

enum class Type : std::uint8_t {
    hello = 1,
    auth = 2,
    auth_ok = 3,
    ping = 10,
    load = 11,
    call = 13,
    resolve = 14,
    members = 20,
    loaded = 21,
    locate = 22,
    join = 30,
    add = 31,
    invite = 32,
    halt = 33,
    claim = 34,
    publish = 35,
    published = 36,
    heartbeat = 40,
};

// Readable name of a type, or "unknown".
const char *type_name(std::uint8_t type);
bool is_known_type(std::uint8_t type);

inline constexpr std::uint16_t kFlagReply = 1;
// Sent by the daemon on a RAW call just before the plugin takes the socket:
// the client must not write the plugin's protocol before it has read this
// header (type CALL, no body).
inline constexpr std::uint16_t kFlagRawStart = 2;

struct Header {
    std::uint8_t type = 0;
    std::uint16_t flags = 0;
    std::uint64_t request_id = 0;
    std::uint32_t body_len = 0;
    std::int32_t status = 0;

    bool is_reply() const { return (flags & kFlagReply) != 0; }
};

using HeaderBytes = std::array<std::uint8_t, kHeaderSize>;

HeaderBytes encode_header(const Header &h);
// Checks magic, version and that body_len is at most max_body.
Result<Header> decode_header(std::span<const std::uint8_t> bytes, std::uint32_t max_body);

}  // namespace harness::protocol
