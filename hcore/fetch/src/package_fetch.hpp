// Downloading one component's files and checking them against the index entry
// (size, SHA-256, names, architecture, ABI) — or, in pure-download mode, only
// against the requested name.
#pragma once

#include <harness/fetch/http_fetcher.hpp>
#include <harness/fetch/repo_index.hpp>

#include <chrono>
#include <string>

namespace harness::fetch {

struct Package {
    std::string so_bytes;
    std::string manifest_bytes;
    std::chrono::seconds ttl{0};
    std::string version;
};

Result<Package> fetch_indexed_package(const std::string &repo_url, const repo::IndexEntry &entry,
                                      const ComponentName &wanted, const FetchConfig &config);

// allow_unsigned with no index: <repo>/lib/<PKG>/<COMP>.so and .json.
Result<Package> fetch_plain_package(const std::string &repo_url, const ComponentName &wanted,
                                    const FetchConfig &config);

}  // namespace harness::fetch
