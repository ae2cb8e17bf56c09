// The detector components' ops tables (package "detector"), one rule file
// and one descriptor file each. See ../README.md for their keys.
#pragma once

#include <harness/policy.h>

namespace harness::policy::detectors {

const harness_policy_detector_ops *process_ops();
const harness_policy_detector_ops *physical_ops();
const harness_policy_detector_ops *network_ops();
const harness_policy_detector_ops *repeated_ops();

}  // namespace harness::policy::detectors
