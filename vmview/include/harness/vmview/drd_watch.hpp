// Waiting for DRD records to change (vm/drd `watch`, plugins/VM_SERVICES.md):
// the long poll behind `cominfo --watch` and the web view's live updates, so
// neither polls blindly.
#pragma once

#include <harness/hlib/hlib.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace harness::vmview {

// Blocks until a record under `prefix` changes or `wait` passes; `index`
// carries the position between calls (0 the first time, then what the last
// call left). Returns the keys that changed (empty when `wait` passed), or an
// error when the watch itself failed (no vm/drd, the daemon gone).
Result<std::vector<std::string>> wait_for_change(hlib::VirtualMachine &vm, const std::string &prefix,
                                                 std::int64_t *index, std::chrono::milliseconds wait);

// The position to watch from so that only changes from now on count: a watch
// from 0 answers with the oldest changes the DRD keeps, a batch at a time, so
// this reads batches until one comes back empty (at most `max_batches`; a
// VM writing faster than that is watched from where the reading stopped).
std::int64_t watch_position(hlib::VirtualMachine &vm, const std::string &prefix, int max_batches = 1000);

}  // namespace harness::vmview
