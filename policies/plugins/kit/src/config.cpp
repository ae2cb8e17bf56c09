// See config.hpp.
#include <harness/policy/kit/config.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace harness::policy::kit {

namespace {

[[noreturn]] void bad_value(std::string_view key, const std::string &value, const std::string &expected) {
    throw std::invalid_argument(std::string(key) + " '" + value + "': " + expected);
}

}  // namespace

Config::Config(const harness_policy_config *config) {
    if (!config || config->count == 0) return;
    if (config->struct_size < sizeof(harness_policy_config))
        throw std::invalid_argument("configuration table too small (struct_size " +
                                    std::to_string(config->struct_size) + ")");
    if (!config->keys || !config->values) throw std::invalid_argument("configuration without keys or values");
    for (std::uint32_t i = 0; i < config->count; ++i) {
        if (!config->keys[i] || !config->values[i])
            throw std::invalid_argument("configuration entry " + std::to_string(i) + " is NULL");
        std::string key = config->keys[i];
        for (const Entry &e : entries_)
            if (e.key == key) throw std::invalid_argument("key '" + key + "' given twice");
        entries_.push_back({key, config->values[i]});
    }
}

std::optional<std::string> Config::take(std::string_view key) {
    known_.emplace_back(key);
    for (Entry &e : entries_)
        if (e.key == key) {
            e.taken = true;
            return e.value;
        }
    return std::nullopt;
}

void Config::finish() const {
    for (const Entry &e : entries_) {
        if (e.taken) continue;
        std::string known;
        for (const std::string &k : known_) known += (known.empty() ? "" : ", ") + k;
        throw std::invalid_argument("unknown key '" + e.key + "' (" +
                                    (known.empty() ? std::string("it takes none") : "it takes " + known) + ")");
    }
}

double parse_fraction(std::string_view key, const std::string &value) {
    double v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || !std::isfinite(v) || v <= 0 ||
        v > 1)
        bad_value(key, value, "not a fraction in (0,1]");
    return v;
}

int parse_integer(std::string_view key, const std::string &value, int minimum) {
    int v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || v < minimum)
        bad_value(key, value, "not an integer >= " + std::to_string(minimum));
    return v;
}

std::string parse_protocol_name(std::string_view key, const std::string &value) {
    bool ok = !value.empty() && value.size() < sizeof(harness_policy_decision{}.protocol) && value[0] >= 'A' &&
        value[0] <= 'Z' && std::all_of(value.begin(), value.end(), [](char c) {
            return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        });
    if (!ok) bad_value(key, value, "not a protocol name (upper case, e.g. RESTART, MIGRATE)");
    return value;
}

std::string parse_choice(std::string_view key, const std::string &value, const std::vector<std::string> &choices) {
    if (std::find(choices.begin(), choices.end(), value) != choices.end()) return value;
    std::string list;
    for (std::size_t i = 0; i < choices.size(); ++i)
        list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    bad_value(key, value, "not " + list);
}

}  // namespace harness::policy::kit
