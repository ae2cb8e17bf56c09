// linearizability.hpp — decides whether a recorded history of DRD registers
// is linearizable: is there one order of the operations, each placed between
// its invocation and its completion, in which every result is the one a
// single register would give?
//
// The register is the DRD record: absent (version 0) or (value, version);
// put writes and bumps the version, cas writes only when the version is the
// expected one (0: absent), get reads both. Keys are independent, so each
// key's history is checked on its own. The search is Wing & Gong's with
// Lowe's just-in-time linearization and a cache of (linearized set, state)
// pairs already explored, as Porcupine does it. An indeterminate operation
// completes at infinity: it may be placed anywhere after its invocation,
// including after everything else (it did not happen); an indeterminate get
// constrains nothing and is dropped.
#pragma once

#include "history.hpp"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace harness::chaos {

struct KeyVerdict {
    std::string key;
    std::size_t ops = 0;
    bool linearizable = true;
    bool gave_up = false;  // the search passed its budget: no verdict
    // On a violation: the shortest prefix of the key's history (cut at one
    // completion) that is not linearizable ends with `witness`; `window`
    // holds the operations it overlaps and the last completed writes before it.
    Op witness;
    std::vector<Op> window;
};

struct Verdict {
    std::size_t ops = 0;
    bool linearizable = true;
    bool gave_up = false;
    std::vector<KeyVerdict> keys;
};

// Checks one key's operations (all of the same key). budget bounds the search.
KeyVerdict check_key(std::vector<Op> ops, std::chrono::milliseconds budget = std::chrono::minutes(5));

// Splits the history by key and checks each.
Verdict check_history(const History &history, std::chrono::milliseconds budget_per_key = std::chrono::minutes(5));

}  // namespace harness::chaos
