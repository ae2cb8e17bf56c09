#include "call_size.hpp"

#include <harness/common/pack.hpp>
#include <harness/common/plugin.h>
#include <harness/common/protocol.hpp>
#include <harness/common/udp_seal.hpp>

namespace hbench {

MessageSize call_size_stream() {
    // CALL { str pkg, str comp, str fn, i32 mode, i32 convention, bytes args }
    // and its reply { bytes result } (protocol.hpp).
    harness::Packer args;
    args.i64(1).i64(1);
    harness::Packer request;
    request.str("examples").str("math").str("add").i32(HARNESS_MODE_INLINE).i32(HARNESS_CALL_AUTO).bytes(args.view());
    harness::Packer result;
    result.i64(2);
    harness::Packer reply;
    reply.bytes(result.view());
    return {harness::protocol::kHeaderSize + request.size(), harness::protocol::kHeaderSize + reply.size()};
}

MessageSize call_size_datagram() {
    auto s = call_size_stream();
    return {s.request + harness::kSealSize, s.reply + harness::kSealSize};
}

}  // namespace hbench
