// See components.hpp.
#include "components.hpp"

namespace harness::policy::detail {

ComponentLoader::ComponentLoader(const hlib::ConnectOptions &connect) : connect_(connect.resolved()) {}

Result<std::shared_ptr<LoadedComponent>> ComponentLoader::load(const std::string &package, const std::string &component,
                                                               const char *interface_name, std::size_t ops_size) {
    std::string key = package + "/" + component;
    if (auto found = loaded_.find(key); found != loaded_.end()) return found->second;
    hlib::DirectLoadOptions options;
    options.daemon = connect_;
    auto plugin = hlib::DirectPlugin::load(connect_.root, ComponentName{package, component}, options);
    if (!plugin) {
        const Error &e = plugin.error();
        std::string what = e.status == HARNESS_ERR_NOT_FOUND ? "no such component" : "cannot load it";
        return make_error(e.status, one_line(what + " (" + key + ": " + e.describe() + ")"));
    }
    auto ops = (*plugin)->interface(interface_name, HARNESS_POLICY_VERSION);
    if (!ops) return make_error(ops.error().status, one_line(ops.error().message));
    // Every policy table starts with its struct_size.
    auto size = *static_cast<const std::uint32_t *>(*ops);
    if (size < ops_size)
        return make_error(HARNESS_ERR_LOAD_FAILED,
                          key + ": its " + interface_name + " table is too small (" + std::to_string(size) +
                              " bytes, " + std::to_string(ops_size) + " expected)");
    auto loaded = std::make_shared<LoadedComponent>();
    loaded->plugin = std::move(*plugin);
    loaded->ops = *ops;
    loaded_[key] = loaded;
    return loaded;
}

CConfig::CConfig(const ConfigPairs &pairs) {
    for (const auto &[k, v] : pairs) {
        keys_.push_back(k.c_str());
        values_.push_back(v.c_str());
    }
    config_.struct_size = sizeof config_;
    config_.count = static_cast<std::uint32_t>(pairs.size());
    config_.keys = keys_.data();
    config_.values = values_.data();
}

OpenDetector::~OpenDetector() {
    if (handle && ops->close) ops->close(handle);
}

OpenProtocol::~OpenProtocol() {
    if (handle && ops->close) ops->close(handle);
}

std::string one_line(std::string text) {
    for (char &c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

}  // namespace harness::policy::detail
