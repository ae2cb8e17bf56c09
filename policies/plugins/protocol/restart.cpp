// protocol/restart: a replacement on the host the rank ran on; when the
// launcher refuses that (the host failed, say) and `fallback` is migrate,
// a replacement where the placement puts it.
#include "protocols.hpp"

#include <harness/policy/kit/protocol.hpp>

namespace harness::policy::protocols {

namespace {

struct RestartRule {
    bool fallback_migrate = true;

    explicit RestartRule(kit::Config &config) {
        if (auto f = config.take("fallback"))
            fallback_migrate = kit::parse_choice("fallback", *f, {"migrate", "none"}) == "migrate";
    }

    std::string recover(const harness_policy_fault &fault, const harness_policy_decision &decision,
                        kit::Actions &actions) const {
        std::string refused = "start_on host " + std::to_string(fault.host) + ": ";
        std::string why = actions.start_on(fault.rank, fault.host);
        if (why.empty()) return "";
        if (!fallback_migrate) return refused + why;
        std::string migrate_why = actions.migrate(fault.rank, decision.avoid_switch != 0);
        return migrate_why.empty() ? "" : refused + why + "; migrate: " + migrate_why;
    }
};

}  // namespace

const harness_policy_protocol_ops *restart_ops() {
    return kit::ProtocolTable<RestartRule>::ops();
}

}  // namespace harness::policy::protocols
