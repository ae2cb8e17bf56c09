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

}  // namespace harness::vmview
