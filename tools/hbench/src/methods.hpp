// methods.hpp — the invocation methods of the paper's Table 2, each timed
// call by call through Hlib's public API (VirtualMachine::call<R> of
// examples/math add, AUTO encoding), plus the direct in-process call of
// examples/direct add through DirectPlugin's native pointer.
#pragma once

#include "stats.hpp"

#include <harness/common/endpoint.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hbench {

// What the measured round trip is compared with.
enum class Baseline { plain_call, unix_blocking, tcp_blocking, udp_blocking };
const char *baseline_name(Baseline b);

struct MethodResult {
    std::string name;         // local_direct, local_unix, … remote_udp
    std::string description;  // for the table
    Baseline baseline = Baseline::tcp_blocking;
    Summary summary;
    std::string error;  // non-empty: not measured, and why
};

// Where the methods go.
struct Targets {
    std::filesystem::path root;  // the local daemon's root (Unix socket, key default)
    std::filesystem::path key_file;
    std::optional<harness::Endpoint> local_tcp;       // the local daemon over TCP
    bool local_unix = true;                           // its Unix socket <root>/var/hcored.sock is usable
    std::vector<std::filesystem::path> direct_roots;  // tried in turn for DirectPlugin examples/direct
    std::vector<std::string> only;                    // non-empty: run just these methods
};

// A plain call of a non-inlined add through a volatile function pointer, in
// batches of plan.direct_batch calls per sample (per-call µs).
Summary measure_plain_call(const Plan &plan);

// Every method in table order; a method that cannot run carries an error.
std::vector<MethodResult> run_methods(const Targets &targets, const Plan &plan);

}  // namespace hbench
