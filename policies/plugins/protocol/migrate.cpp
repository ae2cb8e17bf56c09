// protocol/migrate: a replacement on another host, where the placement puts
// it (moving other ranks as it says), off the failed host's switch when the
// detector asked for that.
#include "protocols.hpp"

#include <harness/policy/kit/protocol.hpp>

namespace harness::policy::protocols {

namespace {

struct MigrateRule {
    explicit MigrateRule(kit::Config &) {}

    std::string recover(const harness_policy_fault &fault, const harness_policy_decision &decision,
                        kit::Actions &actions) const {
        std::string why = actions.migrate(fault.rank, decision.avoid_switch != 0);
        return why.empty() ? "" : "migrate: " + why;
    }
};

}  // namespace

const harness_policy_protocol_ops *migrate_ops() {
    return kit::ProtocolTable<MigrateRule>::ops();
}

}  // namespace harness::policy::protocols
