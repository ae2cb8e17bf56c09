// Policy components loaded into the launcher: the plugin (kept as long as
// any instance of it is open) and its ops table, and the opened instances,
// closed before their plugin goes.
#pragma once

#include "policy_file.hpp"

#include <harness/hlib/hlib.hpp>
#include <harness/policy.h>

#include <map>
#include <memory>
#include <string>

namespace harness::policy::detail {

struct LoadedComponent {
    std::unique_ptr<hlib::DirectPlugin> plugin;
    const void *ops = nullptr;  // the interface's table, checked for its size
};

// The components of one policy, each loaded once.
class ComponentLoader {
public:
    explicit ComponentLoader(const hlib::ConnectOptions &connect);

    // package/component exporting `interface_name` v HARNESS_POLICY_VERSION
    // with a table of at least ops_size bytes. Error (one line): "no such
    // component (detector/x: not found: …)" or what else refused it.
    Result<std::shared_ptr<LoadedComponent>> load(const std::string &package, const std::string &component,
                                                  const char *interface_name, std::size_t ops_size);

private:
    hlib::ConnectOptions connect_;
    std::map<std::string, std::shared_ptr<LoadedComponent>> loaded_;
};

// A key/value table for open(), valid while this object lives.
class CConfig {
public:
    explicit CConfig(const ConfigPairs &pairs);
    const harness_policy_config *get() const { return &config_; }

private:
    std::vector<const char *> keys_, values_;
    harness_policy_config config_{};
};

struct OpenDetector {
    OpenDetector() = default;
    OpenDetector(const OpenDetector &) = delete;
    OpenDetector &operator=(const OpenDetector &) = delete;
    ~OpenDetector();
    std::shared_ptr<LoadedComponent> loaded;
    const harness_policy_detector_ops *ops = nullptr;
    void *handle = nullptr;
    ComponentSpec spec;
};

struct OpenProtocol {
    OpenProtocol() = default;
    OpenProtocol(const OpenProtocol &) = delete;
    OpenProtocol &operator=(const OpenProtocol &) = delete;
    ~OpenProtocol();
    std::shared_ptr<LoadedComponent> loaded;
    const harness_policy_protocol_ops *ops = nullptr;
    void *handle = nullptr;
};

// One line: newlines of a plugin's or loader's text become spaces.
std::string one_line(std::string text);

}  // namespace harness::policy::detail
