// What a Policy holds (internal): the parsed file, the loaded components and
// the opened detector and protocol instances.
#pragma once

#include "components.hpp"
#include "policy_file.hpp"

#include <harness/policy/chain.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace harness::policy {

struct Policy::State {
    explicit State(const hlib::ConnectOptions &connect) : loader(connect) {}

    std::string origin;
    detail::PolicySpec spec;
    detail::ComponentLoader loader;
    std::vector<std::unique_ptr<detail::OpenDetector>> detectors;
    // By protocol name ("RESTART"). recover() adds one a detector chose that
    // from_text could not foresee (a third-party detector without a `protocol` key).
    std::map<std::string, std::unique_ptr<detail::OpenProtocol>> protocols;
    std::shared_ptr<detail::LoadedComponent> placement;

    Error error(int status, const std::string &text) const { return make_error(status, origin + ": " + text); }
    // Loads and opens the component of protocol `name`; chosen_by says why it is needed.
    Result<void> open_protocol(const std::string &name, const std::string &chosen_by);
};

struct Placement::State {
    State() = default;
    State(const State &) = delete;
    State &operator=(const State &) = delete;
    ~State() {
        if (handle && ops->close) ops->close(handle);
    }
    std::shared_ptr<detail::LoadedComponent> loaded;
    const harness_policy_placement_ops *ops = nullptr;
    void *handle = nullptr;
    std::size_t moves_hint = 0;  // a first buffer size: the job's ranks (a slide moves each at most once)
};

// Opens the placement component with a configuration for a layout; the
// instance, or the plugin's one-line reason.
Result<std::unique_ptr<Placement::State>> open_placement_state(const std::shared_ptr<detail::LoadedComponent> &loaded,
                                                               const detail::ConfigPairs &config, const Layout &layout);

}  // namespace harness::policy
