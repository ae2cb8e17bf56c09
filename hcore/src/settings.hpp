// hcored's settings: one typed registry, filled from flags, environment
// variables and an optional config file (--config, INI/TOML as CLI11 reads
// it), in that order of precedence. `hcored --help` is generated from it, and
// the README's option table is copied from that help.
#pragma once

#include <harness/common/endpoint.hpp>
#include <harness/common/log.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace harness::hcore {

struct Settings {
    std::filesystem::path root;          // HARNESS_ROOT; lib/, cache/, var/ below it
    std::filesystem::path key_file;      // HARNESS_KEY; default <root>/vm.key
    Endpoint listen{"127.0.0.1", 7001};  // TCP and UDP on the same port
    std::string vm = "harness";
    std::optional<Endpoint> join;
    bool foreground = false;
    LogLevel log_level = LogLevel::info;
    std::chrono::milliseconds heartbeat_period{250};
    std::chrono::milliseconds heartbeat_timeout{1500};
    std::uint32_t max_body = 16u << 20;
    std::chrono::milliseconds auth_timeout{10000};
    int max_connections = 0;           // 0: derived from RLIMIT_NOFILE
    std::vector<std::string> preload;  // PKG/COMP loaded at start
    // The VM services every daemon loads once it serves (VM_SERVICES.md), in
    // this order; one that cannot be loaded is a warning, not a stop.
    std::vector<std::string> services{"vm/drd", "vm/naming", "vm/events", "vm/spawn_notify"};
    // Searched after <root>/lib and before the cache (Resolver::set_search_path).
    std::vector<std::filesystem::path> plugin_path;
    // Signed plugin repositories, tried after lib/, the plugin path and the cache.
    std::vector<std::string> repositories;
    std::vector<std::string> trusted_fingerprints;
    std::vector<std::filesystem::path> import_keys;
    bool allow_unsigned = false;

    std::filesystem::path lib_dir() const { return root / "lib"; }
    std::filesystem::path cache_dir() const { return root / "cache"; }
    std::filesystem::path var_dir() const { return root / "var"; }
    std::filesystem::path unix_socket() const { return var_dir() / "hcored.sock"; }
};

// Parses argv. On --help or an error, returns the exit code to use (the
// message is already printed); otherwise the settings.
struct ParsedSettings {
    std::optional<Settings> settings;
    int exit_code = 0;
};
ParsedSettings parse_settings(int argc, char **argv);

std::filesystem::path default_root();  // $HARNESS_ROOT or ~/.harness
// The build tree's plugins (when this hcored runs from it), then the install location.
std::vector<std::filesystem::path> default_plugin_path();

}  // namespace harness::hcore
