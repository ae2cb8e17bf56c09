// What a request handler needs from the transport a request came in on.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/result.hpp>

#include <chrono>
#include <functional>
#include <string_view>

namespace harness::hcore {

struct Reply {
    int status = 0;
    Bytes body;
};
using ReplyFn = std::function<void(Reply)>;

// A reply that reports an error: the status, and a message for the caller.
inline Reply error_reply(int status, std::string_view message) {
    Packer p;
    p.str(message);
    return Reply{status, p.take()};
}

inline Reply error_reply(const Error &e) {
    return error_reply(e.status, e.message);
}

// A stream connection lends itself to a RAW call: begin() tells the client to
// start talking (a frame with kFlagRawStart), puts the socket in blocking mode
// and returns its fd; end() restores it before the final reply is sent.
// io_timeout (0: none) bounds each blocking read and write of the plugin, so a
// client that stops talking cannot hold an inline RAW call, and with it the
// daemon's I/O thread, past the heartbeat timeout.
class RawChannel {
public:
    virtual ~RawChannel() = default;
    virtual int begin(std::chrono::milliseconds io_timeout) = 0;
    virtual void end() = 0;
};

enum class Via { unix_socket, tcp, udp };

}  // namespace harness::hcore
