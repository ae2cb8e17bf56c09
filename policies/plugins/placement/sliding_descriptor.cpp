// placement/sliding as an application-level plugin: the placement ops table
// (sliding.cpp) through the descriptor's typed interface slot.
#include "sliding.hpp"

#include <harness/policy/kit/descriptor.hpp>

namespace {

const harness_interface kInterfaces[] = {{sizeof(harness_interface), HARNESS_POLICY_PLACEMENT_INTERFACE,
                                          HARNESS_POLICY_VERSION, harness::policy::placements::sliding_ops()}};
const harness_plugin_descriptor kDescriptor =
    harness::policy::kit::policy_descriptor("placement", "sliding", kInterfaces);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
