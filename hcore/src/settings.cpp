#include "settings.hpp"

#include <harness/common/loader.hpp>

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <sstream>

namespace harness::hcore {

std::filesystem::path default_root() {
    if (const char *r = std::getenv("HARNESS_ROOT"); r && *r) return r;
    const char *home = std::getenv("HOME");
    return std::filesystem::path(home && *home ? home : "/tmp") / ".harness";
}

namespace {

// Endpoint as a CLI11 option value.
CLI::Validator endpoint_validator() {
    return CLI::Validator(
        [](std::string &text) {
            auto e = parse_endpoint(text);
            return e ? std::string() : e.error().message;
        },
        "HOST:PORT");
}

std::vector<std::string> split(const std::string &text, char separator) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, separator);)
        if (!part.empty()) parts.push_back(part);
    return parts;
}

CLI::Validator services_validator() {
    return CLI::Validator(
        [](std::string &text) {
            for (const auto &s : split(text, ','))
                if (auto n = parse_component_name(s); !n) return n.error().message;
            return std::string();
        },
        "PKG/COMP,…");
}

bool running_from(const std::filesystem::path &dir) {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec || dir.empty()) return false;
    auto d = dir.lexically_normal().string();
    return exe.string().rfind(d + "/", 0) == 0;
}

}  // namespace

std::vector<std::filesystem::path> default_plugin_path() {
    // Baked in at compile time (hcore/CMakeLists.txt): an hcored run from its
    // build tree finds the plugins built beside it first.
    std::vector<std::filesystem::path> dirs;
#ifdef HARNESS_BUILD_DIR
    if (running_from(HARNESS_BUILD_DIR)) dirs.emplace_back(HARNESS_BUILD_PLUGIN_DIR);
#endif
#ifdef HARNESS_INSTALL_PLUGIN_DIR
    dirs.emplace_back(HARNESS_INSTALL_PLUGIN_DIR);
#endif
    return dirs;
}

ParsedSettings parse_settings(int argc, char **argv) {
    Settings s;
    std::string root, key, listen = s.listen.to_string(), join, log_level = "info";
    long heartbeat_ms = s.heartbeat_period.count(), timeout_ms = s.heartbeat_timeout.count();
    std::vector<std::string> import_keys;

    CLI::App app{"hcored — the HARNESS daemon: loads plugins and runs them for local and remote callers, "
                 "and forms a virtual machine with the daemons it joins."};
    app.set_config("--config", "", "Read settings from an INI/TOML file (flags and environment override it)");
    app.add_option("--root", root, "HARNESS root directory with lib/, cache/, var/ [default: ~/.harness]")
        ->envname("HARNESS_ROOT");
    app.add_option("--key", key, "VM key file (created with mode 0600 when absent) [default: <root>/vm.key]")
        ->envname("HARNESS_KEY");
    app.add_option("--listen", listen, "TCP and UDP address to serve on (port 0 picks a free port)")
        ->envname("HARNESS_LISTEN")
        ->check(endpoint_validator())
        ->capture_default_str();
    app.add_option("--vm", s.vm, "Virtual machine name")->envname("HARNESS_VM")->capture_default_str();
    app.add_option("--join", join, "Join the VM of the daemon at HOST:PORT")->check(endpoint_validator());
    app.add_flag("--foreground", s.foreground, "Stay in the foreground (otherwise detach once ready)");
    app.add_option("--log-level", log_level, "debug, info, warning or error")
        ->envname("HARNESS_LOG_LEVEL")
        ->check(CLI::IsMember({"debug", "info", "warning", "error"}))
        ->capture_default_str();
    app.add_option("--heartbeat-ms", heartbeat_ms, "Heartbeat period towards the other members")
        ->envname("HARNESS_HEARTBEAT_MS")
        ->check(CLI::Range(10, 60000))
        ->capture_default_str();
    app.add_option("--heartbeat-timeout-ms", timeout_ms, "Silence after which a member is declared failed")
        ->envname("HARNESS_HEARTBEAT_TIMEOUT_MS")
        ->check(CLI::Range(30, 600000))
        ->capture_default_str();
    app.add_option("--max-message", s.max_body, "Largest accepted message body in bytes")
        ->envname("HARNESS_MAX_MESSAGE")
        ->check(CLI::Range(1024u, 1u << 30))
        ->capture_default_str();
    long auth_ms = s.auth_timeout.count();
    app.add_option("--auth-timeout-ms", auth_ms, "Close connections that do not authenticate within this time")
        ->envname("HARNESS_AUTH_TIMEOUT_MS")
        ->check(CLI::Range(100, 600000))
        ->capture_default_str();
    app.add_option("--max-connections", s.max_connections,
                   "Most client connections at once (0: the descriptor limit less a reserve)")
        ->envname("HARNESS_MAX_CONNECTIONS")
        ->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    app.add_option("--load", s.preload, "Load PKG/COMP at start (repeatable)");
    std::string services;
    for (const auto &name : s.services) services += (services.empty() ? "" : ",") + name;
    app.add_option("--services", services,
                   "VM services loaded at start, in order (comma-separated PKG/COMP; \"\" loads none)")
        ->envname("HARNESS_SERVICES")
        ->check(services_validator())
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
        ->expected(0, 1)  // "--services=" or "--services ''": none
        ->capture_default_str();
    std::vector<std::string> plugin_path;
    std::string default_path;
    for (const auto &d : default_plugin_path()) default_path += (default_path.empty() ? "" : ":") + d.string();
    app.add_option("--plugin-path", plugin_path,
                   "Plugin directories (DIR/PKG/COMP.so) searched after <root>/lib, before the cache; "
                   "repeatable or ':'-separated [default: " +
                       default_path + "]")
        ->envname("HARNESS_PLUGIN_PATH");
    app.add_option("--repo", s.repositories, "Plugin repository URL (repeatable)");
    app.add_option("--trust", s.trusted_fingerprints, "Allowed publisher key fingerprint (repeatable)");
    app.add_option("--import-key", import_keys, "Import a publisher public key file into <root>/gnupg (repeatable)");
    app.add_flag("--allow-unsigned", s.allow_unsigned, "Accept unsigned plugins from repositories (logged)");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return {std::nullopt, app.exit(e)};
    }
    if (timeout_ms <= heartbeat_ms) {
        std::fprintf(stderr, "hcored: --heartbeat-timeout-ms must be larger than --heartbeat-ms\n");
        return {std::nullopt, 2};
    }
    s.root = root.empty() ? default_root() : std::filesystem::path(root);
    s.root = std::filesystem::absolute(s.root);
    s.key_file = key.empty() ? s.root / "vm.key" : std::filesystem::absolute(key);
    s.listen = *parse_endpoint(listen);
    if (!join.empty()) s.join = *parse_endpoint(join);
    s.log_level = parse_log_level(log_level);
    s.heartbeat_period = std::chrono::milliseconds(heartbeat_ms);
    s.auth_timeout = std::chrono::milliseconds(auth_ms);
    s.heartbeat_timeout = std::chrono::milliseconds(timeout_ms);
    for (auto &k : import_keys) s.import_keys.emplace_back(k);
    // CLI11 reads "--services=" and "--services ''" as no value at all and
    // keeps the default, so the last one given on the command line is looked
    // up here: an empty one means none.
    std::optional<bool> last_was_empty;
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a.rfind("--services=", 0) == 0) last_was_empty = a.size() == 11;
        if (a == "--services" && i + 1 < argc) last_was_empty = argv[i + 1][0] == '\0';
    }
    if (last_was_empty.value_or(false)) services.clear();
    s.services = split(services, ',');
    if (app.count("--plugin-path") == 0 && !std::getenv("HARNESS_PLUGIN_PATH")) {
        s.plugin_path = default_plugin_path();
    } else {
        for (const auto &entry : plugin_path)
            for (const auto &dir : split(entry, ':')) s.plugin_path.push_back(std::filesystem::absolute(dir));
    }
    return {std::move(s), 0};
}

}  // namespace harness::hcore
