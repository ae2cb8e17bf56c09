// A component's configuration (harness_policy_config) read by name: each
// key the component knows is taken once, and finish() refuses whatever was
// left (an unknown key, e.g. a misspelt "treshold"), so open() fails naming
// it. The value parsers throw std::invalid_argument with one line naming the
// key and the value: "threshold '1.5': not a fraction in (0,1]".
#pragma once

#include <harness/policy.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace harness::policy::kit {

class Config {
public:
    // Throws on a malformed table (NULL arrays, a NULL key, a key twice).
    explicit Config(const harness_policy_config *config);

    // The value of `key`, if the configuration gives it.
    std::optional<std::string> take(std::string_view key);
    // Throws naming the first key nobody took, and the keys that were asked for.
    void finish() const;

private:
    struct Entry {
        std::string key, value;
        bool taken = false;
    };
    std::vector<Entry> entries_;
    std::vector<std::string> known_;
};

// A fraction in (0,1]: "0.5", "1".
double parse_fraction(std::string_view key, const std::string &value);
// An integer >= minimum.
int parse_integer(std::string_view key, const std::string &value, int minimum);
// A protocol name: [A-Z][A-Z0-9_]*, at most 31 characters (harness_policy_decision::protocol).
std::string parse_protocol_name(std::string_view key, const std::string &value);
// One of `choices`.
std::string parse_choice(std::string_view key, const std::string &value, const std::vector<std::string> &choices);

}  // namespace harness::policy::kit
