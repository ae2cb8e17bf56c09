// See detector.hpp.
#include <harness/policy/kit/detector.hpp>

#include <cstring>

namespace harness::policy::kit {

bool fill_decision(harness_policy_decision *decision, const std::string &protocol, const Choice &choice) noexcept {
    if (decision->struct_size < sizeof(harness_policy_decision)) return false;
    write_text(decision->protocol, sizeof decision->protocol, protocol);
    decision->avoid_switch = choice.avoid_switch ? 1 : 0;
    write_text(decision->reason, sizeof decision->reason, choice.reason);
    return true;
}

std::string host_label(const harness_policy_fault &fault) {
    if (fault.host_name && *fault.host_name) return fault.host_name;
    return "host " + std::to_string(fault.host);
}

}  // namespace harness::policy::kit
