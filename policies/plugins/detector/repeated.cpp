// detector/repeated: a host where the job's processes keep failing is
// suspect even while it lives; after more than `threshold` faults there the
// rank moves elsewhere (MIGRATE). Up to the threshold the fault is passed
// on, so the next detector (usually process → RESTART) decides.
#include "detectors.hpp"

#include <harness/policy/kit/detector.hpp>

namespace harness::policy::detectors {

namespace {

struct RepeatedRule {
    static constexpr const char *default_protocol = "MIGRATE";
    int threshold = 2;  // faults a host may have before it is avoided

    explicit RepeatedRule(kit::Config &config) {
        if (auto t = config.take("threshold")) threshold = kit::parse_integer("threshold", *t, 1);
    }

    std::optional<kit::Choice> detect(const harness_policy_fault &fault) const {
        if (fault.host_failures <= threshold) return std::nullopt;
        return kit::Choice{false,
                           kit::host_label(fault) + ": " + std::to_string(fault.host_failures) +
                               " faults, more than the threshold " + std::to_string(threshold)};
    }
};

}  // namespace

const harness_policy_detector_ops *repeated_ops() {
    return kit::DetectorTable<RepeatedRule>::ops();
}

}  // namespace harness::policy::detectors
