// protocol/promote: a hot standby takes the rank's place; with no standby
// left, `fallback` says what then: migrate (default); restart, as the
// RESTART protocol does it (the same host, else migrate); or none.
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
        std::string start_why;
        if (fallback == "restart") {
            start_why = actions.start_on(fault.rank, fault.host);
            if (start_why.empty()) return "";
            refused += "; start_on host " + std::to_string(fault.host) + ": " + start_why;
        }
        std::string migrate_why = actions.migrate(fault.rank, decision.avoid_switch != 0);
        if (migrate_why.empty()) return "";
        return refused + "; migrate: " + migrate_why;
    }
};

}  // namespace

const harness_policy_protocol_ops *promote_ops() {
    return kit::ProtocolTable<PromoteRule>::ops();
}

}  // namespace harness::policy::protocols
