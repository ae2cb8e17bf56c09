// protocol/promote as an application-level plugin: the protocol ops table
// (promote.cpp) through the descriptor's typed interface slot.
#include "protocols.hpp"

#include <harness/policy/kit/descriptor.hpp>

namespace {

const harness_interface kInterfaces[] = {{sizeof(harness_interface), HARNESS_POLICY_PROTOCOL_INTERFACE,
                                          HARNESS_POLICY_VERSION, harness::policy::protocols::promote_ops()}};
const harness_plugin_descriptor kDescriptor =
    harness::policy::kit::policy_descriptor("protocol", "promote", kInterfaces);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
