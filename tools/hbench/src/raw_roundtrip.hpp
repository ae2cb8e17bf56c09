// raw_roundtrip.hpp — the machine's own round trip for a message of the size
// a call uses: a forked child echoes fixed-size messages back over loopback
// TCP, UDP or an AF_UNIX stream, with blocking sockets (both sides sleep in
// recv, as an event-driven daemon does) or busy-polling ones (non-blocking
// sockets and recv in a spin loop on both sides: the floor).
#pragma once

#include "stats.hpp"

#include <cstddef>
#include <string>

namespace hbench {

enum class RawTransport { tcp, udp, unix_stream };
enum class RawWait { blocking, busy_poll };

struct MessageSize {
    std::size_t request = 0; // bytes the caller sends
    std::size_t reply = 0;   // bytes it gets back
};

const char *raw_name(RawTransport t);

// Runs warmup + calls round trips and summarises the timed ones. Throws
// std::runtime_error when a socket or the child fails.
Summary raw_roundtrip(RawTransport transport, RawWait wait, MessageSize size, int calls, int warmup);

struct RawResults {
    Summary tcp_blocking, tcp_busypoll, udp_blocking, udp_busypoll, unix_blocking;
};

// All five, stream sizes for TCP and Unix, datagram sizes for UDP.
RawResults measure_raw(MessageSize stream, MessageSize datagram, int calls, int warmup);

} // namespace hbench
