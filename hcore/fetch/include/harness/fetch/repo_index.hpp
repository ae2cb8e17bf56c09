// harness/fetch/repo_index.hpp — the web repository's signed index (webrepo/README.md).
//
// A repository is a directory any static web server serves unmodified:
//   index.json            this index (RepoIndex), signed by a publisher key
//   index.json.sig        detached OpenPGP signature of index.json
//   packages/<PKG>/<COMP>-<VERSION>.so   and   .json   (the plugin's manifest)
// The index is the only thing the daemon trusts directly; every file it names
// carries a size and SHA-256, so a verified index pins every byte fetched.
// Shared by the daemon's fetcher (parse) and hpublish (build and serialize).
#pragma once

#include <harness/common/loader.hpp>
#include <harness/common/result.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace harness::repo {

inline constexpr int kIndexFormat = 1;
inline constexpr const char *kIndexFile = "index.json";
inline constexpr const char *kSignatureFile = "index.json.sig";

// A file named by the index: a relative path under the repository root.
struct FileRef {
    std::string path;  // "packages/examples/math-1.0.0.so"; never absolute, never ".."
    std::uint64_t size = 0;
    std::string sha256;  // lower-case hex
};

struct IndexEntry {
    std::string package;
    std::string component;
    std::string version;
    int abi_major = 0;
    int abi_minor = 0;
    std::string arch;   // "x86_64", "aarch64", … (from the ELF header)
    std::string level;  // "daemon" | "application"
    std::int64_t cache_ttl_seconds = 3600;
    std::vector<Manifest::Function> functions;  // the calling parameters
    FileRef shared_object;
    FileRef manifest;

    ComponentName name() const { return {package, component}; }
};

struct RepoIndex {
    int format = kIndexFormat;
    std::string repository;          // a display name
    std::int64_t index_version = 0;  // strictly increases with every publication
    std::chrono::system_clock::time_point expires{};
    std::vector<IndexEntry> components;

    const IndexEntry *find(const ComponentName &name) const;
    // Adds or replaces the entry of the same package/component.
    void upsert(IndexEntry entry);
};

// Parses and validates (names, paths, hashes, sizes). Never throws.
Result<RepoIndex> parse_index(std::string_view json_text);
// Stable, pretty JSON (what hpublish writes and signs).
std::string serialize_index(const RepoIndex &index);

// Builds the entry for a plugin from its manifest and the bytes of the two
// files, placing them at packages/<PKG>/<COMP>-<VERSION>.{so,json}.
Result<IndexEntry> make_entry(const Manifest &manifest, std::string_view so_bytes, std::string_view manifest_bytes);

// A path safe to append to a repository URL or directory.
bool is_safe_relative_path(std::string_view path);

// RFC 3339 UTC ("2026-11-23T09:00:00Z") both ways.
std::string format_utc(std::chrono::system_clock::time_point t);
std::optional<std::chrono::system_clock::time_point> parse_utc(std::string_view text);

// The architecture of this build, and of an ELF shared object ("" if unknown).
std::string host_arch();
std::string elf_arch(std::string_view so_bytes);

std::string sha256_hex(std::string_view bytes);

}  // namespace harness::repo
