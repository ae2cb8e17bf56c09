// harness/fetch/http_fetcher.hpp — the resolver's HTTP step: signed plugin repositories.
//
// make_http_fetcher() returns the harness::Fetcher that hcored hands to its
// Resolver. For a component missing from lib/ and cache/, it tries each
// configured repository in order:
//   1. GET index.json (at most max_index_bytes) and index.json.sig;
//   2. verify the detached OpenPGP signature in `gnupghome` and require the
//      signing key's full fingerprint to be in `trusted_fingerprints`;
//   3. refuse an index older than the newest seen for that URL (SQLite at
//      `state_db`: rollback) or past its expiry (freeze);
//   4. find the component, check architecture and plugin ABI;
//   5. GET the .so and the manifest, each bounded by the size the index states
//      (endless data), and compare size and SHA-256; the manifest must name the
//      requested component (mix-and-match);
//   6. write both atomically into <cache_lib_dir>/<PKG>/ with the TTL stamp.
// Each refusal is an Error whose message starts with the reason ("bad
// signature", "unknown key", "missing signature", "hash mismatch", "rollback",
// "expired", "too large", "unreachable", "not in index", "mix-and-match",
// "wrong architecture", "ABI mismatch"), is logged, and leaves nothing in the
// cache. Concurrent fetches of one component share a single download.
//
// allow_unsigned (hcored --allow-unsigned) is the seed paper's "pure download":
// an index without index.json.sig is used (its hashes still checked, its
// version not recorded), and a repository with no index.json at all serves
// plain files at lib/<PKG>/<COMP>.so and .json. Each such use logs a warning.
// A signature that is present but bad, or by an unknown key, is refused even
// then: allow_unsigned accepts no signature, never a wrong one.
#pragma once

#include <harness/common/loader.hpp>
#include <harness/common/log.hpp>
#include <harness/common/result.hpp>
#include <harness/fetch/repo_keys.hpp>

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace harness {

struct FetchConfig {
    std::vector<std::string> repositories;          // base URLs, http:// or https:// (--repo)
    std::vector<std::string> trusted_fingerprints;  // full fingerprints (--trust)
    std::filesystem::path gnupghome;                // the daemon's own, <root>/gnupg
    bool allow_unsigned = false;                    // --allow-unsigned
    std::filesystem::path state_db;                 // SQLite, e.g. <root>/var/repositories.db
    std::size_t max_index_bytes = std::size_t{4} << 20;
    std::size_t max_signature_bytes = std::size_t{64} << 10;
    std::size_t max_package_bytes = std::size_t{256} << 20;  // cap even when the index says more
    std::chrono::milliseconds connect_timeout{5000};
    std::chrono::milliseconds transfer_timeout{60000};
    long max_redirects = 3;
    Logger *log = nullptr;  // may be null; must outlive the fetcher
    // Repositories the VM's registry names for a component (hpublish pushes
    // them); tried before `repositories`, under the same trust rules.
    std::function<std::vector<std::string>(const ComponentName &)> repository_hints;
};

// Checks the configuration (URLs, full fingerprints, GNUPGHOME) and builds the
// fetcher. An error here is a startup error of the daemon.
Result<std::shared_ptr<Fetcher>> make_http_fetcher(FetchConfig config);

// The daemon's GNUPGHOME only ever verifies: creates it 0700 if absent and
// writes a gpg.conf with "no-autostart" (when there is none), so GnuPG never
// leaves a gpg-agent behind the daemon. make_http_fetcher() calls it.
Result<void> prepare_daemon_gnupghome(const std::filesystem::path &gnupghome);

// hcored --import-key FILE: prepares the daemon's GNUPGHOME as above, imports
// a publisher's public key and returns its fingerprint(s). Trusting the key
// still takes --trust FINGERPRINT.
Result<std::vector<std::string>> import_daemon_key(const std::filesystem::path &gnupghome,
                                                   const std::filesystem::path &key_file);

using repo::normalize_fingerprint;

}  // namespace harness
