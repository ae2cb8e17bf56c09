#include "frame.hpp"

#include <cstring>
#include <string>

namespace harness::hlib::detail {

Bytes encode_frame(const protocol::Header &header, std::span<const std::uint8_t> body) {
    protocol::Header h = header;
    h.body_len = static_cast<std::uint32_t>(body.size());
    auto head = protocol::encode_header(h);
    // resize + memcpy: vector::insert of the header array trips a false
    // -Wstringop-overflow in GCC 12.
    Bytes out(head.size() + body.size());
    std::memcpy(out.data(), head.data(), head.size());
    if (!body.empty()) std::memcpy(out.data() + head.size(), body.data(), body.size());
    return out;
}

Result<void> write_frame(int fd, const protocol::Header &header, std::span<const std::uint8_t> body,
                         Clock::time_point deadline) {
    if (body.size() > UINT32_MAX) return make_error(HARNESS_ERR_TOO_LARGE, "request body too large");
    // One buffer, one send: small requests leave in one segment.
    Bytes frame = encode_frame(header, body);
    return write_all(fd, frame, deadline);
}

Result<Frame> read_frame(int fd, std::uint32_t max_body, Clock::time_point deadline, bool *started) {
    protocol::HeaderBytes head{};
    bool head_started = false;
    auto got = read_exact(fd, head, deadline, &head_started);
    if (started) *started = head_started;
    if (!got) return got.error();
    auto header = protocol::decode_header(head, max_body);
    if (!header) return header.error();
    Frame f{*header, Bytes(header->body_len)};
    got = read_exact(fd, f.body, deadline);
    if (!got) return got.error();
    return f;
}

Result<Frame> decode_frame(std::span<const std::uint8_t> bytes, std::uint32_t max_body) {
    auto header = protocol::decode_header(bytes, max_body);
    if (!header) return header.error();
    if (bytes.size() != protocol::kHeaderSize + header->body_len)
        return make_error(HARNESS_ERR_PROTOCOL, "datagram length does not match its frame header");
    auto body = bytes.subspan(protocol::kHeaderSize);
    return Frame{*header, Bytes(body.begin(), body.end())};
}

Result<Bytes> reply_result(Frame &&reply) {
    if (reply.header.status == HARNESS_OK) return std::move(reply.body);
    std::string message;
    Unpacker u(reply.body);
    if (!u.str(message)) message = "(no message)";
    int status = reply.header.status;
    if (status <= 0 || status >= HARNESS_STATUS_COUNT_) status = HARNESS_ERR_PROTOCOL;
    return make_error(status, message);
}

}  // namespace harness::hlib::detail
