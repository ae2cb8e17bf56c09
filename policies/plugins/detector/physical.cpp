// detector/physical: the fault's host itself failed (its daemon was declared
// failed or left), so the rank needs another host (MIGRATE).
#include "detectors.hpp"

#include <harness/policy/kit/detector.hpp>

namespace harness::policy::detectors {

namespace {

struct PhysicalRule {
    static constexpr const char *default_protocol = "MIGRATE";
    explicit PhysicalRule(kit::Config &) {}

    std::optional<kit::Choice> detect(const harness_policy_fault &fault) const {
        if (fault.host_failed == 0) return std::nullopt;
        return kit::Choice{false, kit::host_label(fault) + " failed (rank " + std::to_string(fault.rank) + ")"};
    }
};

}  // namespace

const harness_policy_detector_ops *physical_ops() {
    return kit::DetectorTable<PhysicalRule>::ops();
}

}  // namespace harness::policy::detectors
