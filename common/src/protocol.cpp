#include <harness/common/protocol.hpp>

#include <string>

namespace harness::protocol {

const char *type_name(std::uint8_t type) {
    switch (static_cast<Type>(type)) {
    case Type::hello: return "hello";
    case Type::auth: return "auth";
    case Type::auth_ok: return "auth_ok";
    case Type::ping: return "ping";
    case Type::load: return "load";
    case Type::call: return "call";
    case Type::resolve: return "resolve";
    case Type::members: return "members";
    case Type::loaded: return "loaded";
    case Type::locate: return "locate";
    case Type::join: return "join";
    case Type::add: return "add";
    case Type::invite: return "invite";
    case Type::halt: return "halt";
    case Type::claim: return "claim";
    case Type::publish: return "publish";
    case Type::published: return "published";
    case Type::heartbeat: return "heartbeat";
    }
    return "unknown";
}

bool is_known_type(std::uint8_t type) {
    return std::string_view(type_name(type)) != "unknown";
}

HeaderBytes encode_header(const Header &h) {
    HeaderBytes b{};
    harness_put_le(&b[0], kMagic, 4);
    b[4] = kVersion;
    b[5] = h.type;
    harness_put_le(&b[6], h.flags, 2);
    harness_put_le(&b[8], h.request_id, 8);
    harness_put_le(&b[16], h.body_len, 4);
    harness_put_le(&b[20], static_cast<std::uint32_t>(h.status), 4);
    return b;
}

Result<Header> decode_header(std::span<const std::uint8_t> bytes, std::uint32_t max_body) {
    if (bytes.size() < kHeaderSize)
        return make_error(HARNESS_ERR_PROTOCOL, "truncated frame header (" + std::to_string(bytes.size()) + " bytes)");
    if (harness_get_le(&bytes[0], 4) != kMagic) return make_error(HARNESS_ERR_PROTOCOL, "bad frame magic");
    if (bytes[4] != kVersion)
        return make_error(HARNESS_ERR_PROTOCOL, "unsupported protocol version " + std::to_string(bytes[4]));
    Header h;
    h.type = bytes[5];
    h.flags = static_cast<std::uint16_t>(harness_get_le(&bytes[6], 2));
    h.request_id = harness_get_le(&bytes[8], 8);
    h.body_len = static_cast<std::uint32_t>(harness_get_le(&bytes[16], 4));
    h.status = static_cast<std::int32_t>(static_cast<std::uint32_t>(harness_get_le(&bytes[20], 4)));
    if (h.body_len > max_body)
        return make_error(HARNESS_ERR_TOO_LARGE,
                          "frame body of " + std::to_string(h.body_len) + " bytes exceeds the maximum of " +
                              std::to_string(max_body));
    return h;
}

}  // namespace harness::protocol
