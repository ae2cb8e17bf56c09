// What the transport layer hands up to the point-to-point engine: the C++
// side of ftmpi_transport_sink (ftmpi/transport.h).
#pragma once

#include "transport/frame.hpp"

#include <cstddef>
#include <functional>

namespace ftmpi::transport {

// Asked by the wire-up's connect about a peer it cannot reach yet: true when
// the peer is known to have ended (the VM said so), so the connect leaves it
// out instead of waiting for it until the timeout. May be empty.
using PeerEnded = std::function<bool(int peer)>;

// Where an arriving payload goes: its first `keep` bytes to `dst`, the rest
// is read and dropped (a truncated receive).
struct Landing {
    char *dst = nullptr;
    size_t keep = 0;
    void *cookie = nullptr;  // the sink's, handed back in on_frame
};

class Sink {
public:
    virtual ~Sink() = default;
    // An eager or data frame's header arrived; say where its payload goes.
    virtual Landing on_header(int peer, const Frame &) = 0;
    // A whole frame arrived (payload landed, if it had one).
    virtual void on_frame(int peer, const Frame &, const Landing &) = 0;
    // A send that returned `pending` is now fully written.
    virtual void on_sent(uint64_t token) = 0;
    // The peer ended before its bye: the peer failed.
    virtual void on_peer_lost(int peer) = 0;
    // A replacement of the same recovery round connected (auto-admitted):
    // `peer` is alive again with a new incarnation.
    virtual void on_joined(int /*peer*/) {}
};

enum class SendResult { done, pending, peer_lost };

}  // namespace ftmpi::transport
