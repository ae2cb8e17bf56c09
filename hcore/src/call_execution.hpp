// Running one plugin function in the current thread and process, whatever the
// convention, and turning its outcome into a reply (status + body). Used by
// every invocation mode: inline, new thread, forked child and service process.
#pragma once

#include "plugin_registry.hpp"

#include <harness/common/pack.hpp>

#include <span>

namespace harness::hcore {

// A reply as sent on the wire: OK → body { bytes result }, else { str message }.
struct Outcome {
    int status = HARNESS_OK;
    Bytes body;
};

Outcome ok_outcome(std::span<const std::uint8_t> result);
Outcome error_outcome(int status, std::string_view message);
Outcome error_outcome(const Error &e);

// Checks the arguments (AUTO: against the signature) and calls f. For RAW,
// raw_fd is the caller's connection in blocking mode; otherwise -1.
Outcome execute_call(const LoadedPlugin &plugin, const harness_function &f, std::size_t function_index,
                     std::span<const std::uint8_t> args, int raw_fd, const harness_host_api *host);

// Serialize an outcome through a pipe or socket (forked children, services).
Bytes encode_outcome(const Outcome &o);
Result<Outcome> decode_outcome(std::span<const std::uint8_t> bytes);

}  // namespace harness::hcore
