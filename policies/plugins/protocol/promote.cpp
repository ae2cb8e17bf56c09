// protocol/promote: a hot standby takes the rank's place; with no standby
// left, `fallback` says what then: migrate (default), restart on the same
// host, or none.
#include "protocols.hpp"

#include <harness/policy/kit/protocol.hpp>

namespace harness::policy::protocols {

namespace {

struct PromoteRule {
    std::string fallback = "migrate";

    explicit PromoteRule(kit::Config &config) {
        if (auto f = config.take("fallback"))
            fallback = kit::parse_choice("fallback", *f, {"migrate", "restart", "none"});
    }

    std::string recover(const harness_policy_fault &fault, const harness_policy_decision &decision,
                        kit::Actions &actions) const {
        std::string why = actions.promote(fault.rank);
        if (why.empty()) return "";
        std::string refused = "promote: " + why;
        if (fallback == "none") return refused;
        std::string fallback_why = fallback == "migrate" ? actions.migrate(fault.rank, decision.avoid_switch != 0)
                                                         : actions.start_on(fault.rank, fault.host);
        if (fallback_why.empty()) return "";
        return refused + "; " +
            (fallback == "migrate" ? "migrate: " : "start_on host " + std::to_string(fault.host) + ": ") + fallback_why;
    }
};

}  // namespace

const harness_policy_protocol_ops *promote_ops() {
    return kit::ProtocolTable<PromoteRule>::ops();
}

}  // namespace harness::policy::protocols
