// protocol/ignore: no replacement; the survivors go on without the rank.
#include "protocols.hpp"

#include <harness/policy/kit/protocol.hpp>

namespace harness::policy::protocols {

namespace {

struct IgnoreRule {
    explicit IgnoreRule(kit::Config &) {}

    std::string recover(const harness_policy_fault &fault, const harness_policy_decision &decision,
                        kit::Actions &actions) const {
        std::string reason(kit::text_of(decision.reason));
        if (reason.empty()) reason = "left out by the recovery policy";
        std::string refused = actions.leave_out(fault.rank, reason);
        return refused.empty() ? "" : "leave_out: " + refused;
    }
};

}  // namespace

const harness_policy_protocol_ops *ignore_ops() {
    return kit::ProtocolTable<IgnoreRule>::ops();
}

}  // namespace harness::policy::protocols
