#include "index_fetch.hpp"

#include "download_limits.hpp"

#include <thread>

namespace harness::fetch {

namespace {

void warn(const FetchConfig &config, const std::string &message) {
    if (config.log) config.log->warning(message);
}

}  // namespace

namespace {

// The index and its signature as one read. hpublish replaces the two files
// one after the other, so a reader can catch a new signature with the old
// index; one re-read after a pause tells that apart from tampering.
struct SignedText {
    std::string text;
    std::optional<std::string> signature;  // nullopt: the server has none (404)
};

Result<SignedText> get_signed_text(const std::string &repo_url, const FetchConfig &config) {
    auto text = http_get(join_url(repo_url, repo::kIndexFile), limits_for(config, config.max_index_bytes));
    if (!text) return text.error();
    auto sig = http_get(join_url(repo_url, repo::kSignatureFile), limits_for(config, config.max_signature_bytes));
    if (sig) return SignedText{std::move(*text), std::move(*sig)};
    if (sig.error().status != HARNESS_ERR_NOT_FOUND) return sig.error();
    return SignedText{std::move(*text), std::nullopt};
}

}  // namespace

Result<VerifiedIndex> fetch_verified_index(const std::string &repo_url, const FetchConfig &config, IndexState &state) {
    auto index_url = join_url(repo_url, repo::kIndexFile);
    VerifiedIndex verified;
    std::string text;
    for (int attempt = 0;; ++attempt) {
        auto got = get_signed_text(repo_url, config);
        if (!got) {
            // NOT_FOUND here is always the index itself (a missing signature is not an error).
            if (got.error().status == HARNESS_ERR_NOT_FOUND && config.allow_unsigned) {
                warn(config,
                     "repository " + repo_url +
                         " has no index; --allow-unsigned: plain download without "
                         "any signature or hash check");
                return VerifiedIndex{};
            }
            return got.error();
        }
        text = std::move(got->text);
        if (!got->signature) {
            if (!config.allow_unsigned)
                return make_error(HARNESS_ERR_AUTH,
                                  "missing signature: " + index_url +
                                      " has no index.json.sig (start with --allow-unsigned to "
                                      "accept that)");
            warn(config, "index " + index_url + " is UNSIGNED; --allow-unsigned: using it anyway");
            break;
        }
        auto signer = repo::verify_detached(config.gnupghome, text, *got->signature, config.trusted_fingerprints);
        if (signer) {
            verified.signer = std::move(*signer);
            break;
        }
        bool mismatch = signer.error().message.rfind("bad signature", 0) == 0;
        if (!mismatch || attempt > 0)
            return make_error(signer.error().status, signer.error().message + " (" + index_url + ")");
        warn(config, index_url + ": signature does not match; re-reading once in case of a publication in progress");
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }

    // Parse only bytes whose signature checked out (or that were accepted unsigned).
    auto index = repo::parse_index(text);
    if (!index) return make_error(index.error().status, index.error().message + " (" + index_url + ")");

    // "http://h/repo" and "http://h/repo/" are one repository for rollback.
    std::string state_key = repo_url;
    while (!state_key.empty() && state_key.back() == '/') state_key.pop_back();
    auto seen = state.highest(state_key);
    if (!seen) return seen.error();
    if (index->index_version < *seen)
        return make_error(HARNESS_ERR_AUTH,
                          "rollback: " + index_url + " has index_version " + std::to_string(index->index_version) +
                              ", older than version " + std::to_string(*seen) + " already seen");
    auto now = std::chrono::system_clock::now();
    if (index->expires <= now)
        return make_error(HARNESS_ERR_AUTH,
                          "expired: " + index_url + " (index_version " + std::to_string(index->index_version) +
                              ") expired at " + repo::format_utc(index->expires));
    // An unsigned index must not raise the bar: anyone could serve version 2^62.
    if (!verified.signer.empty() && index->index_version > *seen)
        if (auto r = state.record(state_key, index->index_version); !r) return r.error();
    verified.index = std::move(*index);
    return verified;
}

}  // namespace harness::fetch
