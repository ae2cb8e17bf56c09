// `hconsole load` and `hconsole loaded`.
#include "session.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <ostream>
#include <set>

namespace harness::hconsole {

namespace {}  // namespace

namespace {

// PKG alone: the components this root holds for it (lib/ and a cache/lib/
// entry), which is what the local daemon can resolve without a repository.
Result<std::vector<ComponentName>> package_components(const std::filesystem::path &root, const std::string &package) {
    if (!is_valid_name_part(package))
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "expected PACKAGE[/COMPONENT], got \"" + package + "\"");
    std::set<std::string> names;
    for (const auto &dir : {root / "lib" / package, root / "cache" / "lib" / package}) {
        std::error_code ec;
        for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
            const auto &p = entry.path();
            if (p.extension() == ".so" && std::filesystem::exists(p.parent_path() / (p.stem().string() + ".json")))
                names.insert(p.stem().string());
        }
    }
    if (names.empty())
        return make_error(HARNESS_ERR_NOT_FOUND,
                          "no components of package " + package + " under " + (root / "lib").string() + " or " +
                              (root / "cache" / "lib").string() + " (name one as PKG/COMP)");
    std::vector<ComponentName> out;
    for (const auto &n : names) out.push_back({package, n});
    return out;
}

}  // namespace

int Session::load(const std::string &component, const std::vector<std::string> &on, bool all) {
    std::vector<ComponentName> names;
    if (component.find('/') == std::string::npos) {
        auto listed = package_components(settings_.connect.resolved().root, component);
        if (!listed) return fail(listed.error());
        names = std::move(*listed);
    } else {
        auto name = parse_component_name(component);
        if (!name) return fail(name.error());
        names.push_back(*name);
    }
    auto *v = vm();
    if (!v) return 1;
    hlib::Placement where;
    if (all)
        where.kind = hlib::Placement::Kind::all;
    else if (!on.empty())
        where = {hlib::Placement::Kind::list, on};

    std::size_t failed = 0, total = 0;
    nlohmann::json list = nlohmann::json::array();
    for (const auto &name : names) {
        auto results = v->load(name, where);
        if (results.empty()) return fail("load " + name.to_string() + ": no daemon to load it on");
        for (const auto &r : results) {
            ++total;
            if (!r.result) ++failed;
            if (settings_.json) {
                nlohmann::json entry{{"id", r.member_id}, {"component", name.to_string()}};
                if (r.result)
                    entry["version"] = *r.result;
                else
                    entry["error"] = r.result.error().describe();
                list.push_back(std::move(entry));
            } else if (r.result) {
                out_ << r.member_id << ": loaded " << name.to_string() << " " << *r.result << "\n";
            } else {
                out_ << r.member_id << ": error: " << name.to_string() << ": " << r.result.error().describe() << "\n";
            }
        }
    }
    if (settings_.json) out_ << nlohmann::json{{"results", list}}.dump() << "\n";
    out_ << std::flush;
    if (failed)
        return fail("load " + component + " failed " + std::to_string(failed) + " time(s) of " + std::to_string(total));
    return 0;
}

int Session::loaded() {
    auto *v = vm();
    if (!v) return 1;
    auto everywhere = v->loaded_everywhere();
    std::size_t failed = 0;
    nlohmann::json list = nlohmann::json::array();
    for (const auto &d : everywhere) {
        if (!d.result) {
            // A daemon the VM declared failed runs nothing: report, not an error.
            if (d.result.error().status != HARNESS_ERR_MEMBER_FAILED) ++failed;
            if (settings_.json)
                list.push_back({{"id", d.member_id}, {"error", d.result.error().describe()}});
            else
                out_ << d.member_id << ": error: " << d.result.error().describe() << "\n";
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
                    functions.push_back({{"name", f.name},
                                         {"convention", convention_name(f.convention)},
                                         {"default_mode", mode_name(f.default_mode)},
                                         {"signature", f.signature}});
                } else {
                    out_ << "    " << f.name << " " << convention_name(f.convention);
                    if (!f.signature.empty()) out_ << " " << f.signature;
                    out_ << " (" << mode_name(f.default_mode) << ")\n";
                }
            }
            if (settings_.json)
                components.push_back({{"name", c.name.to_string()},
                                      {"version", c.version},
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

}  // namespace harness::hconsole
