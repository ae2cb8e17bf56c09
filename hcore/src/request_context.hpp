// What a request handler needs from the transport a request came in on.
#pragma once

#include <harness/pack.hpp>

#include <functional>

namespace harness::hcore {

struct Reply {
    int status = 0;
    Bytes body;
};
using ReplyFn = std::function<void(Reply)>;

// A stream connection lends itself to a RAW call: begin() tells the client to
// start talking (a frame with kFlagRawStart), puts the socket in blocking mode
// and returns its fd; end() restores it before the final reply is sent.
class RawChannel {
public:
    virtual ~RawChannel() = default;
    virtual int begin() = 0;
    virtual void end() = 0;
};

enum class Via { unix_socket, tcp, udp };

} // namespace harness::hcore
