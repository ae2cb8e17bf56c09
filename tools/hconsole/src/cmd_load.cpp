// `hconsole load` and `hconsole loaded`.
#include "session.hpp"

#include <nlohmann/json.hpp>

#include <ostream>

namespace harness::hconsole {

namespace {

const char *convention_name(harness_convention c)
{
    switch (c) {
    case HARNESS_CALL_RAW: return "raw";
    case HARNESS_CALL_PACKED: return "packed";
    case HARNESS_CALL_AUTO: return "auto";
    }
    return "unknown";
}

const char *mode_name(harness_mode m)
{
    switch (m) {
    case HARNESS_MODE_DEFAULT: return "default";
    case HARNESS_MODE_INLINE: return "inline";
    case HARNESS_MODE_THREAD: return "thread";
    case HARNESS_MODE_FORK: return "fork";
    case HARNESS_MODE_SERVICE: return "service";
    }
    return "unknown";
}

} // namespace

int Session::load(const std::string &component, const std::vector<std::string> &on, bool all)
{
    auto name = parse_component_name(component);
    if (!name) return fail(name.error());
    auto *v = vm();
    if (!v) return 1;
    hlib::Placement where;
    if (all) where.kind = hlib::Placement::Kind::all;
    else if (!on.empty()) where = {hlib::Placement::Kind::list, on};
    auto results = v->load(*name, where);

    std::size_t failed = 0;
    nlohmann::json list = nlohmann::json::array();
    for (const auto &r : results) {
        if (!r.result) ++failed;
        if (settings_.json) {
            if (r.result) list.push_back({{"id", r.member_id}, {"version", *r.result}});
            else list.push_back({{"id", r.member_id}, {"error", r.result.error().describe()}});
        } else if (r.result) {
            out_ << r.member_id << ": loaded " << name->to_string() << " " << *r.result << "\n";
        } else {
            out_ << r.member_id << ": error: " << r.result.error().describe() << "\n";
        }
    }
    if (settings_.json) out_ << nlohmann::json{{"component", name->to_string()}, {"results", list}}.dump() << "\n";
    out_ << std::flush;
    if (results.empty()) return fail("load " + name->to_string() + ": no daemon to load it on");
    if (failed)
        return fail("load " + name->to_string() + " failed on " + std::to_string(failed) + " of " +
                    std::to_string(results.size()) + " daemon(s)");
    return 0;
}

int Session::loaded()
{
    auto *v = vm();
    if (!v) return 1;
    auto everywhere = v->loaded_everywhere();
    std::size_t failed = 0;
    nlohmann::json list = nlohmann::json::array();
    for (const auto &d : everywhere) {
        if (!d.result) {
            // A daemon the VM declared failed runs nothing: report, not an error.
            if (d.result.error().status != HARNESS_ERR_MEMBER_FAILED) ++failed;
            if (settings_.json) list.push_back({{"id", d.member_id}, {"error", d.result.error().describe()}});
            else out_ << d.member_id << ": error: " << d.result.error().describe() << "\n";
            continue;
        }
        nlohmann::json components = nlohmann::json::array();
        if (!settings_.json) out_ << d.member_id << ":" << (d.result->empty() ? " (nothing loaded)" : "") << "\n";
        for (const auto &c : *d.result) {
            nlohmann::json functions = nlohmann::json::array();
            if (!settings_.json)
                out_ << "  " << c.name.to_string() << " " << c.version
                     << (c.level == HARNESS_LEVEL_APPLICATION ? " application" : " daemon")
                     << (c.policy == HARNESS_ONE_PER_VM ? " one-per-vm" : " per-daemon") << "\n";
            for (const auto &f : c.functions) {
                if (settings_.json) {
                    functions.push_back({{"name", f.name}, {"convention", convention_name(f.convention)},
                                         {"default_mode", mode_name(f.default_mode)}, {"signature", f.signature}});
                } else {
                    out_ << "    " << f.name << " " << convention_name(f.convention);
                    if (!f.signature.empty()) out_ << " " << f.signature;
                    out_ << " (" << mode_name(f.default_mode) << ")\n";
                }
            }
            if (settings_.json)
                components.push_back({{"name", c.name.to_string()}, {"version", c.version},
                                      {"level", c.level == HARNESS_LEVEL_APPLICATION ? "application" : "daemon"},
                                      {"policy", c.policy == HARNESS_ONE_PER_VM ? "one-per-vm" : "per-daemon"},
                                      {"functions", functions}});
        }
        if (settings_.json) list.push_back({{"id", d.member_id}, {"components", components}});
    }
    if (settings_.json) out_ << nlohmann::json{{"daemons", list}}.dump() << "\n";
    out_ << std::flush;
    if (failed) return fail("loaded: " + std::to_string(failed) + " daemon(s) did not answer");
    return 0;
}

} // namespace harness::hconsole
