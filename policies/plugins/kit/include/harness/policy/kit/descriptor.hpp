// The plugin descriptor of a policy component: application level, no RPC
// functions, one typed interface (harness/policy.h) whose table the
// component's rule file provides. A descriptor file is then three lines:
//
//   const harness_interface kInterfaces[] = {
//       {sizeof(harness_interface), HARNESS_POLICY_DETECTOR_INTERFACE, HARNESS_POLICY_VERSION, process_ops()}};
//   const harness_plugin_descriptor kDescriptor = policy_descriptor("detector", "process", kInterfaces);
//   HARNESS_PLUGIN_EXPORT(kDescriptor)
#pragma once

#include <harness/common/plugin.hpp>
#include <harness/policy.h>

namespace harness::policy::kit {

// The version every policy component of this tree carries (its manifest says the same).
inline constexpr const char *kComponentVersion = "1.0.0";

template <std::size_t M>
constexpr harness_plugin_descriptor policy_descriptor(const char *package, const char *component,
                                                      const harness_interface (&interfaces)[M]) {
    return {HARNESS_PLUGIN_ABI_MAJOR,
            HARNESS_PLUGIN_ABI_MINOR,
            sizeof(harness_plugin_descriptor),
            package,
            component,
            kComponentVersion,
            HARNESS_LEVEL_APPLICATION,
            HARNESS_PER_DAEMON,
            nullptr,
            nullptr,
            0,
            nullptr,
            M,
            interfaces};
}

}  // namespace harness::policy::kit
