// See comm_drivers.hpp.
#include "runtime/comm_drivers.hpp"

#include "runtime/log.hpp"
#include "settings/values.hpp"

#include <harness/hlib/hlib.hpp>

#include <memory>
#include <stdexcept>

namespace ftmpi::runtime {

namespace {

std::vector<std::string> parse_list(const std::string &text) {
    std::vector<std::string> names;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        std::string name = text.substr(start, end - start);
        if (name.empty())
            throw std::runtime_error("FTMPI_TRANSPORTS='" + text + "': an empty name (expected e.g. shm,tcp)");
        for (char c : name)
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
                throw std::runtime_error("FTMPI_TRANSPORTS='" + text + "': '" + name + "' is not a driver name");
        names.push_back(name);
        start = end + 1;
    }
    return names;
}

// The ops table of plugin driver comm/<name>, or nullptr with *why set.
// The plugin stays loaded for the life of the process: the engine's
// progress thread may call into it until the very end.
const ftmpi_transport_ops *load_plugin(const std::string &name, std::string *why) {
    namespace hl = harness::hlib;
    static auto *loaded = new std::vector<std::unique_ptr<hl::DirectPlugin>>();
    const std::filesystem::path root = hl::ConnectOptions{}.resolved().root;  // $HARNESS_ROOT or ~/.harness
    auto plugin = hl::DirectPlugin::load(root, harness::ComponentName{"comm", name});
    if (!plugin) {
        *why = plugin.error().describe();
        return nullptr;
    }
    auto ops = (*plugin)->interface_as<ftmpi_transport_ops>(FTMPI_TRANSPORT_INTERFACE, FTMPI_TRANSPORT_VERSION);
    if (!ops) {
        *why = ops.error().describe();
        return nullptr;
    }
    loaded->push_back(std::move(*plugin));
    return *ops;
}

}  // namespace

CommDrivers load_comm_drivers(int rank) {
    CommDrivers d;
    d.preference = parse_list(settings::current().text(settings::Id::transports));
    for (const std::string &name : d.preference) {
        if (name == "tcp") continue;
        std::string why;
        if (const ftmpi_transport_ops *ops = load_plugin(name, &why)) {
            d.plugins.push_back(ops);
        } else if (rank == 0) {
            log::warn("comm driver %s not used (peers it would reach go over TCP): %s", name.c_str(), why.c_str());
        }
    }
    return d;
}

}  // namespace ftmpi::runtime
