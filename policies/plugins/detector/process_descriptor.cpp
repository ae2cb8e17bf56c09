// detector/process as an application-level plugin: the detector ops table
// (process.cpp) through the descriptor's typed interface slot.
#include "detectors.hpp"

#include <harness/policy/kit/descriptor.hpp>

namespace {

const harness_interface kInterfaces[] = {{sizeof(harness_interface), HARNESS_POLICY_DETECTOR_INTERFACE,
                                          HARNESS_POLICY_VERSION, harness::policy::detectors::process_ops()}};
const harness_plugin_descriptor kDescriptor =
    harness::policy::kit::policy_descriptor("detector", "process", kInterfaces);

}  // namespace

HARNESS_PLUGIN_EXPORT(kDescriptor)
