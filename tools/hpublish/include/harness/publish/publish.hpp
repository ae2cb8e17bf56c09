// harness/publish/publish.hpp — adding built plugins to a web repository (hpublish).
//
// publish() copies each plugin's .so and manifest into the repository layout
// (webrepo/README.md), adds or replaces its index entry, bumps index_version,
// sets the expiry and re-signs index.json with a detached signature. The
// pieces are separate so that the VM registry push (a later step) can reuse
// the entries publish() returns.
#pragma once

#include <harness/common/result.hpp>
#include <harness/fetch/repo_index.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace harness::publish {

struct PluginFiles {
    std::filesystem::path shared_object;
    std::filesystem::path manifest;
};

// A manifest path (its .so beside it, same stem) or a folder searched
// recursively for such pairs.
Result<std::vector<PluginFiles>> find_plugins(const std::filesystem::path &arg);

// Reads the built plugin and builds its index entry (ttl overrides the
// manifest's cache_ttl_seconds when given). Returns the entry and the bytes.
struct PreparedPlugin {
    repo::IndexEntry entry;
    std::string so_bytes;
    std::string manifest_bytes;
};
Result<PreparedPlugin> prepare_plugin(const PluginFiles &files, std::optional<std::chrono::seconds> ttl);

// A whole file as bytes.
Result<std::string> read_file(const std::filesystem::path &file);

// index.json of the repository, or an empty index (version 0) when absent.
Result<repo::RepoIndex> load_index(const std::filesystem::path &repo_dir);

// Writes bytes to repo_dir/relative atomically (temp, fsync, rename).
Result<void> write_repo_file(const std::filesystem::path &repo_dir, const std::string &relative,
                             std::string_view bytes);

// Writes index.json and, when signer is not empty, index.json.sig (armored);
// with an empty signer an old signature is removed.
Result<void> write_signed_index(const std::filesystem::path &repo_dir, const repo::RepoIndex &index,
                                const std::filesystem::path &gnupghome, const std::string &signer);

struct PublishOptions {
    std::filesystem::path repo_dir;
    std::filesystem::path gnupghome;
    std::string signer;                       // full fingerprint
    std::optional<std::chrono::seconds> ttl;  // per-entry cache TTL override
    std::chrono::seconds expires_in{std::chrono::hours(24 * 30)};
    std::string repository_name;                // kept from the old index when empty
    std::optional<std::int64_t> index_version;  // default: old version + 1
};

Result<repo::RepoIndex> publish(const PublishOptions &options, const std::vector<PluginFiles> &plugins);

// Checks a repository directory the way a daemon would check it over HTTP:
// the index's signature by one of `trusted`, its expiry, and the size and
// SHA-256 of every file it names. For publishers and CI before serving it.
Result<repo::RepoIndex> verify_repository(const std::filesystem::path &repo_dir, const std::filesystem::path &gnupghome,
                                          const std::vector<std::string> &trusted);

}  // namespace harness::publish
