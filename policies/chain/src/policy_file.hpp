// The policy file's grammar (policies/README.md), checked without loading
// anything: which components, in which order, with which configuration.
// Values become the text a component's open() gets: strings as they are,
// numbers as written (nlohmann's dump: 0.6 → "0.6"), booleans true/false.
#pragma once

#include <harness/common/result.hpp>

#include <string>
#include <utility>
#include <vector>

namespace harness::policy::detail {

using ConfigPairs = std::vector<std::pair<std::string, std::string>>;

struct ComponentSpec {
    std::string component;  // detector, placement: the component; protocols: the protocol name (upper case)
    ConfigPairs config;     // the members other than "component", in file order
    std::string where;      // for messages: "detectors[1] (network)", "protocols.RESTART", "placement (sliding)"
};

struct PolicySpec {
    std::vector<ComponentSpec> detectors;
    std::vector<ComponentSpec> protocols;  // configurations by protocol name
    bool has_placement = false;
    ComponentSpec placement;
};

// Error: "<origin>: <one line>".
Result<PolicySpec> parse_policy(const std::string &json, const std::string &origin);

// [A-Z][A-Z0-9_]*: a protocol's name, whose component is protocol/<lower case>.
bool protocol_name_ok(const std::string &name);

// The configured value of `key`, or nullptr.
const std::string *config_value(const ConfigPairs &config, const std::string &key);

// "network(threshold=0.6)", "process".
std::string describe_component(const std::string &name, const ConfigPairs &config);

}  // namespace harness::policy::detail
