// forwarder.hpp — calling a service function on another daemon.
//
// A non-active instance hands a request to the active one on another daemon.
// The plugin uses HlibForwarder (authenticated TCP through Hlib, with a small
// pool of open connections); unit tests connect service objects in-process.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/result.hpp>

#include <chrono>
#include <span>
#include <string>

namespace harness::vmsvc {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

struct ForwardTarget {
    std::string member_id;
    std::string address;  // "host:port"
};

class Forwarder {
public:
    virtual ~Forwarder() = default;
    // Calls component/function (PACKED, default mode) on the target daemon.
    // A status from the remote function comes back as an Error with it.
    virtual Result<Bytes> call(const ForwardTarget &target, std::string_view function,
                               std::span<const std::uint8_t> args, Deadline deadline) = 0;
};

}  // namespace harness::vmsvc
