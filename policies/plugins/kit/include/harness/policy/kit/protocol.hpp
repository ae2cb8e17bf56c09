// The C ops table of a protocol component, built from a rule:
//
//   struct Rule {
//       explicit Rule(Config &config);   // takes its keys; throws on a bad value
//       // "" when the rank was recovered, else why not (one line)
//       std::string recover(const harness_policy_fault &, const harness_policy_decision &, Actions &) const;
//   };
//
// Actions wraps the launcher's harness_policy_actions: each call answers ""
// or the launcher's reason for refusing, and a slot the launcher's table
// lacks is a refusal, never a call through NULL.
#pragma once

#include <harness/policy/kit/config.hpp>
#include <harness/policy/kit/text.hpp>

#include <memory>
#include <string>

namespace harness::policy::kit {

class Actions {
public:
    explicit Actions(const harness_policy_actions &actions) : a_(actions) {}

    std::string start_on(int rank, int host) const;
    std::string migrate(int rank, bool avoid_switch) const;
    std::string promote(int rank) const;
    std::string leave_out(int rank, const std::string &reason) const;

private:
    const harness_policy_actions &a_;
};

template <class Rule>
class ProtocolTable {
public:
    static const harness_policy_protocol_ops *ops() {
        static const harness_policy_protocol_ops table = {sizeof(harness_policy_protocol_ops), open, recover, close};
        return &table;
    }

private:
    static void *open(const harness_policy_config *config, char *why, size_t why_len) noexcept {
        return guarded_open(why, why_len, [&]() -> void * {
            Config c(config);
            auto rule = std::make_unique<Rule>(c);
            c.finish();
            return rule.release();
        });
    }

    static int32_t recover(void *protocol, const harness_policy_fault *fault, const harness_policy_decision *decision,
                           const harness_policy_actions *actions, char *why, size_t why_len) noexcept {
        return guarded(why, why_len, [&]() -> int32_t {
            if (!protocol || !fault || fault->struct_size < sizeof(harness_policy_fault) || !decision ||
                decision->struct_size < sizeof(harness_policy_decision) || !actions ||
                actions->struct_size < sizeof(harness_policy_actions)) {
                write_text(why, why_len, "missing or too small fault, decision or actions");
                return HARNESS_POLICY_INVALID;
            }
            Actions a(*actions);
            std::string failed = static_cast<const Rule *>(protocol)->recover(*fault, *decision, a);
            if (failed.empty()) return HARNESS_POLICY_OK;
            write_text(why, why_len, failed);
            return HARNESS_POLICY_REFUSED;
        });
    }

    static void close(void *protocol) noexcept { delete static_cast<Rule *>(protocol); }
};

}  // namespace harness::policy::kit
