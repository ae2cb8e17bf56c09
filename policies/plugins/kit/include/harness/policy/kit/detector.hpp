// The C ops table of a detector component, built from a rule:
//
//   struct Rule {
//       static constexpr const char *default_protocol = "MIGRATE";
//       explicit Rule(Config &config);          // takes its keys; throws on a bad value
//       std::optional<Choice> detect(const harness_policy_fault &fault) const;
//   };
//
// The table handles what every detector shares: the optional `protocol` key
// overriding the default choice, unknown keys, the size checks of the
// structs, filling the decision, and exceptions.
#pragma once

#include <harness/policy/kit/config.hpp>
#include <harness/policy/kit/text.hpp>

#include <memory>
#include <optional>
#include <string>

namespace harness::policy::kit {

// A rule's answer when the fault is its case.
struct Choice {
    bool avoid_switch = false;
    std::string reason;  // one line for the launcher's log
};

// Fills *decision (when it is large enough); false when it is not.
bool fill_decision(harness_policy_decision *decision, const std::string &protocol, const Choice &choice) noexcept;
// The fault's host name for messages: "h3", or "host 3" when it has none.
std::string host_label(const harness_policy_fault &fault);

template <class Rule>
class DetectorTable {
public:
    static const harness_policy_detector_ops *ops() {
        static const harness_policy_detector_ops table = {sizeof(harness_policy_detector_ops), open, detect, close};
        return &table;
    }

private:
    struct Instance {
        std::string protocol;
        Rule rule;
    };

    static void *open(const harness_policy_config *config, char *why, size_t why_len) noexcept {
        return guarded_open(why, why_len, [&]() -> void * {
            Config c(config);
            std::string protocol = Rule::default_protocol;
            if (auto p = c.take("protocol")) protocol = parse_protocol_name("protocol", *p);
            auto instance = std::make_unique<Instance>(Instance{protocol, Rule(c)});
            c.finish();
            return instance.release();
        });
    }

    static int32_t detect(void *detector, const harness_policy_fault *fault,
                          harness_policy_decision *decision) noexcept {
        try {
            if (!detector || !fault || fault->struct_size < sizeof(harness_policy_fault) || !decision)
                return HARNESS_POLICY_INVALID;
            const auto *instance = static_cast<const Instance *>(detector);
            std::optional<Choice> choice = instance->rule.detect(*fault);
            if (!choice) return HARNESS_POLICY_REFUSED;
            return fill_decision(decision, instance->protocol, *choice) ? HARNESS_POLICY_OK : HARNESS_POLICY_INVALID;
        } catch (...) {
            return HARNESS_POLICY_INVALID;
        }
    }

    static void close(void *detector) noexcept { delete static_cast<Instance *>(detector); }
};

}  // namespace harness::policy::kit
