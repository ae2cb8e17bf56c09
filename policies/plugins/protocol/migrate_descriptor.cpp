// protocol/migrate as an application-level plugin: the protocol ops table
// (migrate.cpp) through the descriptor's typed interface slot.
#include "protocols.hpp"

#include <harness/policy/kit/descriptor.hpp>

namespace {

const harness_interface kInterfaces[] = {{sizeof(harness_interface), HARNESS_POLICY_PROTOCOL_INTERFACE,
                                          HARNESS_POLICY_VERSION, harness::policy::protocols::migrate_ops()}};
const harness_plugin_descriptor kDescriptor =
    harness::policy::kit::policy_descriptor("protocol", "migrate", kInterfaces);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
