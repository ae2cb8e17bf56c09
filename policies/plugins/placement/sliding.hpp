// placement/sliding: the sliding substitution of Hori et al. (harness_placement)
// behind the placement ops table. See ../README.md for its keys.
#pragma once

#include <harness/policy.h>

namespace harness::policy::placements {

const harness_policy_placement_ops *sliding_ops();

}  // namespace harness::policy::placements
