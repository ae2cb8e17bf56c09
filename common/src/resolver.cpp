#include <harness/common/loader.hpp>

#include <fstream>
#include <optional>

namespace harness {

namespace fs = std::filesystem;

bool is_valid_name_part(std::string_view part) {
    if (part.empty() || part.size() > 128 || part == "." || part == "..") return false;
    for (char c : part) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
            c == '.';
        if (!ok) return false;
    }
    return true;
}

Result<ComponentName> parse_component_name(std::string_view text) {
    auto slash = text.find('/');
    if (slash == std::string_view::npos)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "expected PACKAGE/COMPONENT, got \"" + std::string(text) + "\"");
    ComponentName n{std::string(text.substr(0, slash)), std::string(text.substr(slash + 1))};
    if (!is_valid_name_part(n.package) || !is_valid_name_part(n.component))
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "invalid component name \"" + std::string(text) + "\" (allowed: letters, digits, _ - .)");
    return n;
}

const char *origin_name(PluginOrigin origin) {
    switch (origin) {
    case PluginOrigin::lib: return "lib";
    case PluginOrigin::cache: return "cache";
    case PluginOrigin::fetched: return "fetched";
    case PluginOrigin::plugin_path: return "plugin-path";
    }
    return "unknown";
}

namespace {

fs::path stamp_path(const fs::path &cache_lib, const ComponentName &n) {
    return cache_lib / n.package / (n.component + ".fetched");
}

// A cache entry is valid while now < the deadline written in its stamp.
bool cache_entry_valid(const fs::path &cache_lib, const ComponentName &n) {
    std::ifstream in(stamp_path(cache_lib, n));
    long long until = 0;
    if (!(in >> until)) return false;
    auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
    return now.count() < until;
}

std::optional<ResolvedPlugin> look_in(const fs::path &dir, const ComponentName &n, PluginOrigin origin) {
    ResolvedPlugin p{dir / n.package / (n.component + ".so"), dir / n.package / (n.component + ".json"), origin};
    std::error_code ec;
    if (fs::is_regular_file(p.shared_object, ec) && fs::is_regular_file(p.manifest, ec)) return p;
    return std::nullopt;
}

}  // namespace

Resolver::Resolver(fs::path root, std::shared_ptr<Fetcher> fetcher)
    : root_(std::move(root)), fetcher_(std::move(fetcher)) {}

Result<ResolvedPlugin> Resolver::resolve(const ComponentName &name) const {
    if (!is_valid_name_part(name.package) || !is_valid_name_part(name.component))
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "invalid component name " + name.to_string());
    if (auto p = look_in(root_ / "lib", name, PluginOrigin::lib)) return *p;
    for (const auto &dir : search_path_)
        if (auto p = look_in(dir, name, PluginOrigin::plugin_path)) return *p;
    fs::path cache_lib = root_ / "cache" / "lib";
    if (auto p = look_in(cache_lib, name, PluginOrigin::cache); p && cache_entry_valid(cache_lib, name)) return *p;
    if (fetcher_) return fetcher_->fetch(name, cache_lib);
    std::string searched = (root_ / "lib").string();
    for (const auto &dir : search_path_) searched += ", " + dir.string();
    return make_error(HARNESS_ERR_NOT_FOUND,
                      "no plugin " + name.to_string() + " in " + searched +
                          " or a valid cache entry, and no repository configured");
}

Result<void> write_cache_stamp(const fs::path &cache_lib, const ComponentName &name,
                               std::chrono::system_clock::time_point valid_until) {
    fs::path stamp = stamp_path(cache_lib, name);
    fs::path tmp = stamp;
    tmp += ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << std::chrono::duration_cast<std::chrono::seconds>(valid_until.time_since_epoch()).count() << "\n";
        if (!out) return make_error(HARNESS_ERR_INTERNAL, "cannot write cache stamp " + tmp.string());
    }
    std::error_code ec;
    fs::rename(tmp, stamp, ec);
    if (ec) return make_error(HARNESS_ERR_INTERNAL, "cannot rename cache stamp: " + ec.message());
    return {};
}

}  // namespace harness
