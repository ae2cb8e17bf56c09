// history.hpp — a recorded history of operations on DRD registers, as the
// register workload records it and the linearizability checker reads it.
//
// Every operation has its invocation and completion times (steady clock, ns
// from the start of the run) and, when it completed, its result. An operation
// whose outcome is unknown (a timeout, a dropped connection, an error from a
// daemon that may have forwarded it) is `indeterminate`: it may or may not
// have taken effect, at any time after its invocation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace harness::chaos {

enum class OpKind { put, get, cas };

struct Op {
    int client = 0;
    std::string key;
    OpKind kind = OpKind::get;
    // Arguments: the value written (put, cas) and the expected version (cas).
    std::string value;
    std::int64_t expected = 0;
    std::int64_t call_ns = 0;
    std::int64_t return_ns = 0;  // ignored when indeterminate
    bool indeterminate = false;
    // Results. put: version. get: found, value (in `got`), version.
    // cas: ok (in `found`), current version.
    bool found = false;
    std::string got;
    std::int64_t version = 0;
};

using History = std::vector<Op>;

// One line per operation, e.g. "c3 cas k1 (exp 4, v c3-17) -> ok v5 [12.1 ms, 12.9 ms]".
std::string describe(const Op &op);

}  // namespace harness::chaos
