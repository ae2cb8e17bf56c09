// See policy_file.hpp.
#include "policy_file.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace harness::policy::detail {

namespace {

// ordered: configurations keep the order of the file (describe() shows them so).
using json = nlohmann::ordered_json;

const char *type_of(const json &v) {
    switch (v.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::null: return "null";
    default: return "a value";
    }
}

// A lower-case component name: [a-z0-9_-]+.
bool component_name_ok(const std::string &name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
}

class Parser {
public:
    explicit Parser(std::string origin) : origin_(std::move(origin)) {}

    Error fail(const std::string &what) const {
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, origin_ + ": " + what);
    }

    // The configuration members of `object`, all but "component".
    Result<ConfigPairs> config_of(const json &object, const std::string &where) const {
        ConfigPairs config;
        for (const auto &[key, value] : object.items()) {
            if (key == "component") continue;
            if (value.is_string())
                config.emplace_back(key, value.get<std::string>());
            else if (value.is_number() || value.is_boolean())
                config.emplace_back(key, value.dump());
            else
                return fail(where + ": " + key + ": " + type_of(value) +
                            " (a value is a string, a number or a boolean)");
        }
        return config;
    }

    // {"component": "name", key: value, …}
    Result<ComponentSpec> component_of(const json &object, const std::string &where) const {
        if (!object.is_object()) return fail(where + ": " + type_of(object) + ", expected an object");
        auto c = object.find("component");
        if (c == object.end() || !c->is_string())
            return fail(where + ": no \"component\" (a string naming the component)");
        std::string name = c->get<std::string>();
        if (!component_name_ok(name))
            return fail(where + ": component '" + name + "' is not a component name (lower case, e.g. process)");
        auto config = config_of(object, where + " (" + name + ")");
        if (!config) return config.error();
        return ComponentSpec{name, std::move(*config), where + " (" + name + ")"};
    }

    Result<PolicySpec> parse(const std::string &text) const {
        json doc;
        try {
            doc = json::parse(text);
        } catch (const json::parse_error &e) {
            std::string what = e.what();
            if (auto bracket = what.find("] "); what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
                what = what.substr(bracket + 2);
            return fail("not JSON (" + what + ")");
        }
        if (!doc.is_object()) return fail(std::string(type_of(doc)) + ", expected a JSON object");
        for (const auto &[key, value] : doc.items())
            if (key != "detectors" && key != "protocols" && key != "placement")
                return fail("unknown key '" + key + "' (a policy has detectors, protocols and placement)");

        PolicySpec spec;
        auto detectors = doc.find("detectors");
        if (detectors == doc.end() || !detectors->is_array() || detectors->empty())
            return fail("detectors: a non-empty array of detectors is required");
        for (std::size_t i = 0; i < detectors->size(); ++i) {
            auto d = component_of((*detectors)[i], "detectors[" + std::to_string(i) + "]");
            if (!d) return d.error();
            spec.detectors.push_back(std::move(*d));
        }

        if (auto protocols = doc.find("protocols"); protocols != doc.end()) {
            if (!protocols->is_object())
                return fail("protocols: " + std::string(type_of(*protocols)) +
                            ", expected an object of configurations by protocol name");
            for (const auto &[name, value] : protocols->items()) {
                std::string where = "protocols." + name;
                if (!protocol_name_ok(name))
                    return fail(where + ": '" + name + "' is not a protocol name (upper case, e.g. RESTART)");
                if (!value.is_object()) return fail(where + ": " + type_of(value) + ", expected an object");
                auto config = config_of(value, where);
                if (!config) return config.error();
                spec.protocols.push_back({name, std::move(*config), where});
            }
        }

        if (auto placement = doc.find("placement"); placement != doc.end()) {
            auto p = component_of(*placement, "placement");
            if (!p) return p.error();
            spec.has_placement = true;
            spec.placement = std::move(*p);
        }
        return spec;
    }

private:
    std::string origin_;
};

}  // namespace

Result<PolicySpec> parse_policy(const std::string &json_text, const std::string &origin) {
    return Parser(origin).parse(json_text);
}

bool protocol_name_ok(const std::string &name) {
    return !name.empty() && name[0] >= 'A' && name[0] <= 'Z' && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

const std::string *config_value(const ConfigPairs &config, const std::string &key) {
    for (const auto &[k, v] : config)
        if (k == key) return &v;
    return nullptr;
}

std::string describe_component(const std::string &name, const ConfigPairs &config) {
    if (config.empty()) return name;
    std::string out = name + "(";
    for (std::size_t i = 0; i < config.size(); ++i) out += (i ? "," : "") + config[i].first + "=" + config[i].second;
    return out + ")";
}

}  // namespace harness::policy::detail
