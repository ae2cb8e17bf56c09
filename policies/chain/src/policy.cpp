// Policy: loading a policy file's components, and the chain at a fault —
// detectors in order, then the chosen protocol against the launcher.
#include "launcher_actions.hpp"
#include "policy_state.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <sstream>

namespace harness::policy {

namespace {

// The protocol each detector of this tree chooses when its `protocol` key
// is not given (policies/README.md). A detector not listed here names its
// protocol at decide() time only; its component is loaded then.
const char *documented_default(const std::string &detector) {
    if (detector == "process") return "RESTART";
    if (detector == "physical" || detector == "network" || detector == "repeated") return "MIGRATE";
    return nullptr;
}

// The protocol recover() falls back on when no detector takes a fault.
constexpr const char *kUntakenProtocol = "RESTART";

std::string lower(std::string name) {
    for (char &c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
}

// A layout for checking a placement's configuration before any job has
// one: 2x2x2 hosts, one rank on host 0, no spares. A method of up to three
// dimensions passes; one that needs more is refused later, by open_placement
// for the job's own layout.
Layout probe_layout() {
    Layout l;
    l.host_extents = {2, 2, 2};
    l.rank_extents = {1, 1, 1};
    l.rank_host = {0};
    return l;
}

// The C view of a Fault; strings point into `fault`.
harness_policy_fault c_fault(const Fault &fault) {
    harness_policy_fault f{};
    f.struct_size = sizeof f;
    f.rank = fault.rank;
    f.incarnation = fault.incarnation;
    f.host = fault.host;
    f.host_name = fault.host_name.c_str();
    f.host_failed = fault.host_failed ? 1 : 0;
    f.host_failures = fault.host_failures;
    f.switch_name = fault.switch_name.c_str();
    f.switch_hosts = fault.switch_hosts;
    f.switch_failed_hosts = fault.switch_failed_hosts;
    return f;
}

harness_policy_decision c_decision(const Decision &decision) {
    harness_policy_decision d{};
    d.struct_size = sizeof d;
    std::strncpy(d.protocol, decision.protocol.c_str(), sizeof d.protocol - 1);
    d.avoid_switch = decision.avoid_switch ? 1 : 0;
    std::strncpy(d.reason, decision.reason.c_str(), sizeof d.reason - 1);
    return d;
}

}  // namespace

Result<void> Policy::State::open_protocol(const std::string &name, const std::string &chosen_by) {
    if (protocols.count(name)) return {};
    auto loaded =
        loader.load("protocol", lower(name), HARNESS_POLICY_PROTOCOL_INTERFACE, sizeof(harness_policy_protocol_ops));
    if (!loaded)
        return error(loaded.error().status, "protocol '" + name + "' (" + chosen_by + "): " + loaded.error().message);
    auto open = std::make_unique<detail::OpenProtocol>();
    open->loaded = *loaded;
    open->ops = static_cast<const harness_policy_protocol_ops *>((*loaded)->ops);
    if (!open->ops->open || !open->ops->recover)
        return error(HARNESS_ERR_NOT_SUPPORTED, "protocol '" + name + "': its table has no open or recover");
    std::string where = "protocol " + name;
    detail::ConfigPairs config;
    for (const auto &p : spec.protocols)
        if (p.component == name) {
            config = p.config;
            where = p.where;
        }
    detail::CConfig cconfig(config);
    char why[512] = {};
    open->handle = open->ops->open(cconfig.get(), why, sizeof why);
    if (!open->handle) return error(HARNESS_ERR_INVALID_ARGUMENT, where + ": " + detail::one_line(why));
    protocols[name] = std::move(open);
    return {};
}

Policy::Policy(std::unique_ptr<State> state) : state_(std::move(state)) {}

Policy::~Policy() = default;

Result<std::unique_ptr<Policy>> Policy::from_file(const std::filesystem::path &file,
                                                  const hlib::ConnectOptions &connect) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return make_error(HARNESS_ERR_NOT_FOUND, file.string() + ": cannot read it (" + std::strerror(errno) + ")");
    std::ostringstream text;
    text << in.rdbuf();
    return from_text(text.str(), file.string(), connect);
}

Result<std::unique_ptr<Policy>> Policy::from_text(const std::string &json, const std::string &origin,
                                                  const hlib::ConnectOptions &connect) {
    auto spec = detail::parse_policy(json, origin);
    if (!spec) return spec.error();
    auto state = std::make_unique<State>(connect);
    state->origin = origin;
    state->spec = std::move(*spec);
    State &s = *state;

    for (const detail::ComponentSpec &d : s.spec.detectors) {
        auto loaded = s.loader.load("detector", d.component, HARNESS_POLICY_DETECTOR_INTERFACE,
                                    sizeof(harness_policy_detector_ops));
        if (!loaded) return s.error(loaded.error().status, "detector '" + d.component + "': " + loaded.error().message);
        auto open = std::make_unique<detail::OpenDetector>();
        open->loaded = *loaded;
        open->ops = static_cast<const harness_policy_detector_ops *>((*loaded)->ops);
        open->spec = d;
        if (!open->ops->open || !open->ops->detect)
            return s.error(HARNESS_ERR_NOT_SUPPORTED, d.where + ": its table has no open or detect");
        detail::CConfig cconfig(d.config);
        char why[512] = {};
        open->handle = open->ops->open(cconfig.get(), why, sizeof why);
        if (!open->handle) return s.error(HARNESS_ERR_INVALID_ARGUMENT, d.where + ": " + detail::one_line(why));
        s.detectors.push_back(std::move(open));
    }

    // Every protocol a detector can choose, so a misspelt one fails now.
    for (const detail::ComponentSpec &d : s.spec.detectors) {
        const std::string *configured = detail::config_value(d.config, "protocol");
        const char *chosen = configured ? configured->c_str() : documented_default(d.component);
        if (!chosen) continue;
        if (!detail::protocol_name_ok(chosen))
            return s.error(HARNESS_ERR_INVALID_ARGUMENT,
                           d.where + ": protocol '" + chosen + "': not a protocol name (upper case, e.g. RESTART)");
        if (auto opened = s.open_protocol(chosen, "chosen by " + d.where); !opened) return opened.error();
    }
    if (auto opened = s.open_protocol(kUntakenProtocol, "for faults no detector takes"); !opened) return opened.error();
    for (const detail::ComponentSpec &p : s.spec.protocols)
        if (auto opened = s.open_protocol(p.component, "configured in protocols"); !opened) return opened.error();

    if (s.spec.has_placement) {
        const detail::ComponentSpec &p = s.spec.placement;
        // fail_avoiding is optional (a table may end before it).
        auto loaded = s.loader.load("placement", p.component, HARNESS_POLICY_PLACEMENT_INTERFACE,
                                    offsetof(harness_policy_placement_ops, fail_avoiding));
        if (!loaded)
            return s.error(loaded.error().status, "placement '" + p.component + "': " + loaded.error().message);
        s.placement = *loaded;
        // Its configuration is checked now, on a probe layout, not when the
        // first host of the job fails.
        auto probe = open_placement_state(s.placement, p.config, probe_layout());
        if (!probe) return s.error(probe.error().status, p.where + ": " + probe.error().message);
    }
    return std::unique_ptr<Policy>(new Policy(std::move(state)));
}

std::string Policy::default_text(const std::string &method) {
    nlohmann::ordered_json doc;
    doc["detectors"] = nlohmann::ordered_json::array({{{"component", "physical"}}, {{"component", "process"}}});
    doc["placement"] = {{"component", "sliding"}, {"method", method.empty() ? "hybrid(all)" : method}};
    return doc.dump();
}

Decision Policy::decide(const Fault &fault) const {
    harness_policy_fault f = c_fault(fault);
    for (const auto &d : state_->detectors) {
        harness_policy_decision out{};
        out.struct_size = sizeof out;
        if (d->ops->detect(d->handle, &f, &out) != HARNESS_POLICY_OK) continue;
        out.protocol[sizeof out.protocol - 1] = '\0';
        out.reason[sizeof out.reason - 1] = '\0';
        return Decision{out.protocol, out.avoid_switch != 0, out.reason, d->spec.component};
    }
    return Decision{kUntakenProtocol, false, "no detector took it", ""};
}

std::string Policy::recover(const Fault &fault, const Decision &decision, Launcher &launcher) const {
    if (!detail::protocol_name_ok(decision.protocol))
        return "protocol '" + decision.protocol + "': not a protocol name (upper case, e.g. RESTART)";
    if (auto opened = state_->open_protocol(decision.protocol, "chosen by detector " + decision.detector); !opened)
        return opened.error().message;
    const detail::OpenProtocol &p = *state_->protocols.at(decision.protocol);
    harness_policy_fault f = c_fault(fault);
    harness_policy_decision d = c_decision(decision);
    harness_policy_actions actions = detail::actions_for(launcher);
    char why[512] = {};
    std::int32_t rc = p.ops->recover(p.handle, &f, &d, &actions, why, sizeof why);
    if (rc == HARNESS_POLICY_OK) return "";
    why[sizeof why - 1] = '\0';
    return decision.protocol + ": " + detail::one_line(*why ? why : "could not recover the rank, giving no reason");
}

bool Policy::names_placement() const {
    return state_->spec.has_placement;
}

Result<std::unique_ptr<Placement>> Policy::open_placement(const Layout &layout) const {
    if (!state_->placement) return state_->error(HARNESS_ERR_NOT_FOUND, "the policy names no placement");
    auto opened = open_placement_state(state_->placement, state_->spec.placement.config, layout);
    if (!opened)
        return state_->error(opened.error().status, state_->spec.placement.where + ": " + opened.error().message);
    return std::unique_ptr<Placement>(new Placement(std::move(*opened)));
}

std::string Policy::describe() const {
    const detail::PolicySpec &spec = state_->spec;
    std::string out = "detectors ";
    for (std::size_t i = 0; i < spec.detectors.size(); ++i)
        out += (i ? " > " : "") + detail::describe_component(spec.detectors[i].component, spec.detectors[i].config);
    if (!spec.protocols.empty()) {
        out += "; protocols ";
        for (std::size_t i = 0; i < spec.protocols.size(); ++i)
            out += (i ? ", " : "") + detail::describe_component(spec.protocols[i].component, spec.protocols[i].config);
    }
    if (spec.has_placement)
        out += "; placement " + detail::describe_component(spec.placement.component, spec.placement.config);
    return out;
}

}  // namespace harness::policy
