// hlib/src/frame.hpp — protocol frames on a stream or in a datagram (internal).
#pragma once

#include "io.hpp"

#include <harness/common/pack.hpp>
#include <harness/common/protocol.hpp>

namespace harness::hlib::detail {

struct Frame {
    protocol::Header header;
    Bytes body;
};

Bytes encode_frame(const protocol::Header &header, std::span<const std::uint8_t> body);
Result<void> write_frame(int fd, const protocol::Header &header, std::span<const std::uint8_t> body,
                         Clock::time_point deadline);
// *started: see read_exact; a frame cut short leaves the stream out of step.
Result<Frame> read_frame(int fd, std::uint32_t max_body, Clock::time_point deadline, bool *started);
// A datagram's frame: header and exactly body_len bytes after it.
Result<Frame> decode_frame(std::span<const std::uint8_t> bytes, std::uint32_t max_body);

// A reply's outcome: its body, or the Error its status and message describe.
Result<Bytes> reply_result(Frame &&reply);

}  // namespace harness::hlib::detail
