// Getting a repository's index and deciding whether to believe it:
// signature and allowlist, rollback (SQLite state), freeze (expiry).
#pragma once

#include "index_state.hpp"

#include <harness/fetch/http_fetcher.hpp>
#include <harness/fetch/repo_index.hpp>

#include <optional>

namespace harness::fetch {

struct VerifiedIndex {
    // Empty only in pure-download mode: allow_unsigned and no index.json.
    std::optional<repo::RepoIndex> index;
    std::string signer;  // primary fingerprint; empty when unsigned
};

Result<VerifiedIndex> fetch_verified_index(const std::string &repo_url, const FetchConfig &config, IndexState &state);

}  // namespace harness::fetch
