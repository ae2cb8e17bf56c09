// detector/network: so many of the job's hosts behind the fault's switch
// failed that the switch itself is the likely fault; the replacement goes
// to a host behind another switch (MIGRATE with avoid_switch).
#include "detectors.hpp"

#include <harness/policy/kit/detector.hpp>

#include <sstream>

namespace harness::policy::detectors {

namespace {

struct NetworkRule {
    static constexpr const char *default_protocol = "MIGRATE";
    double threshold = 0.5;  // failed hosts / hosts behind the switch, in (0,1]

    explicit NetworkRule(kit::Config &config) {
        if (auto t = config.take("threshold")) threshold = kit::parse_fraction("threshold", *t);
    }

    std::optional<kit::Choice> detect(const harness_policy_fault &fault) const {
        std::string_view name = kit::text_of(fault.switch_name);
        if (name.empty() || fault.switch_hosts <= 0) return std::nullopt;
        double share = static_cast<double>(fault.switch_failed_hosts) / fault.switch_hosts;
        if (share < threshold) return std::nullopt;
        std::ostringstream reason;
        reason << "switch " << name << ": " << fault.switch_failed_hosts << " of " << fault.switch_hosts
               << " hosts failed (threshold " << threshold << ")";
        return kit::Choice{true, reason.str()};
    }
};

}  // namespace

const harness_policy_detector_ops *network_ops() {
    return kit::DetectorTable<NetworkRule>::ops();
}

}  // namespace harness::policy::detectors
