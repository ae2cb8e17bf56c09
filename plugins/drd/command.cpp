#include "command.hpp"

#include <cstring>

namespace harness::drd {

Bytes frame_padded(std::span<const std::uint8_t> body) {
    Bytes out(padded_size(8 + body.size()), 0);
    harness_put_le(out.data(), body.size(), 8);
    if (!body.empty()) std::memcpy(out.data() + 8, body.data(), body.size());
    return out;
}

Result<std::span<const std::uint8_t>> unframe_padded(std::span<const std::uint8_t> framed) {
    if (framed.size() < 8 || framed.size() % kEntryAlignment != 0)
        return make_error(HARNESS_ERR_PROTOCOL,
                          "drd entry of " + std::to_string(framed.size()) + " bytes is not a padded frame");
    std::uint64_t len = harness_get_le(framed.data(), 8);
    if (len > framed.size() - 8 || padded_size(8 + len) != framed.size())
        return make_error(HARNESS_ERR_PROTOCOL,
                          "drd entry length " + std::to_string(len) + " does not match its " +
                              std::to_string(framed.size()) + "-byte frame");
    return framed.subspan(8, len);
}

Bytes encode_command(const Command &c) {
    Packer p;
    p.i32(static_cast<std::int32_t>(c.op)).str(c.key).bytes(c.value).i64(c.expected_version);
    if (!c.client.empty()) p.str(c.client).i64(c.request);
    return frame_padded(p.view());
}

Result<Command> decode_command(std::span<const std::uint8_t> entry) {
    auto body = unframe_padded(entry);
    if (!body) return body.error();
    Unpacker u(*body);
    Command c;
    std::int32_t op = 0;
    if (!u.i32(op) || !u.str(c.key) || !u.bytes(c.value) || !u.i64(c.expected_version))
        return make_error(HARNESS_ERR_PROTOCOL, "malformed drd command");
    // The requester's identity is optional (entries written before it existed have none).
    if (!u.done() && (!u.str(c.client) || !u.i64(c.request) || c.client.empty() || !u.done()))
        return make_error(HARNESS_ERR_PROTOCOL, "malformed drd command (requester)");
    if (op < static_cast<std::int32_t>(Op::put) || op > static_cast<std::int32_t>(Op::del))
        return make_error(HARNESS_ERR_PROTOCOL, "unknown drd command op " + std::to_string(op));
    c.op = static_cast<Op>(op);
    return c;
}

}  // namespace harness::drd
