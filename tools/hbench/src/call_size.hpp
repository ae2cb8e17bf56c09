// call_size.hpp — the bytes one benchmark call (examples/math add(i64,i64),
// AUTO) puts on the wire, so the raw round trips move the same sizes.
#pragma once

#include "raw_roundtrip.hpp"

namespace hbench {

// Request and reply frames on a stream (TCP, Unix socket).
MessageSize call_size_stream();
// The same frames sealed as UDP datagrams.
MessageSize call_size_datagram();

}  // namespace hbench
