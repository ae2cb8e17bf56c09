// raw_roundtrip.hpp — the machine's own round trip for a message of the size
// a call uses: a forked child echoes fixed-size messages back over loopback
// TCP, UDP or an AF_UNIX stream, with blocking sockets (both sides sleep in
// recv, as an event-driven daemon does) or busy-polling ones (non-blocking
// sockets and recv in a spin loop on both sides, pinned to two different
// CPUs: the floor; a side that has
// spun 50 µs in vain blocks in poll(), so that a loaded machine, where the
// other side is not running, does not turn every exchange into a time slice;
// sched_yield() in the loop was tried and is worse: under load it hands the
// core to unrelated processes, and the spinner loses the sleeper's wake-up
// preference). On a busy machine the busy-poll figures are not a floor.
#pragma once

#include "stats.hpp"

#include <cstddef>
#include <string>

namespace hbench {

enum class RawTransport { tcp, udp, unix_stream };
enum class RawWait { blocking, busy_poll };

struct MessageSize {
    std::size_t request = 0;  // bytes the caller sends
    std::size_t reply = 0;    // bytes it gets back
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

}  // namespace hbench
