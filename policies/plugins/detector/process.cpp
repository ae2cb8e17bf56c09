// detector/process: a process died on a host that lives — a software fault
// of that process, so starting it again where it was is enough (RESTART).
#include "detectors.hpp"

#include <harness/policy/kit/detector.hpp>

namespace harness::policy::detectors {

namespace {

struct ProcessRule {
    static constexpr const char *default_protocol = "RESTART";
    explicit ProcessRule(kit::Config &) {}

    std::optional<kit::Choice> detect(const harness_policy_fault &fault) const {
        if (fault.host_failed != 0) return std::nullopt;
        return kit::Choice{false,
                           "rank " + std::to_string(fault.rank) + ": its process failed on " + kit::host_label(fault) +
                               ", which lives"};
    }
};

}  // namespace

const harness_policy_detector_ops *process_ops() {
    return kit::DetectorTable<ProcessRule>::ops();
}

}  // namespace harness::policy::detectors
