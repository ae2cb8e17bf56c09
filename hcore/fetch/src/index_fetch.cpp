#include "index_fetch.hpp"

#include "curl_download.hpp"

namespace harness::fetch {

namespace {

DownloadLimits limits_for(const FetchConfig &config, std::size_t max_bytes)
{
    return {max_bytes, config.connect_timeout, config.transfer_timeout, config.max_redirects};
}

void warn(const FetchConfig &config, const std::string &message)
{
    if (config.log) config.log->warning(message);
}

} // namespace

Result<VerifiedIndex> fetch_verified_index(const std::string &repo_url, const FetchConfig &config, IndexState &state)
{
    auto index_url = join_url(repo_url, repo::kIndexFile);
    auto text = http_get(index_url, limits_for(config, config.max_index_bytes));
    if (!text) {
        if (text.error().status == HARNESS_ERR_NOT_FOUND && config.allow_unsigned) {
            warn(config, "repository " + repo_url + " has no index; --allow-unsigned: plain download without any "
                         "signature or hash check");
            return VerifiedIndex{};
        }
        return text.error();
    }

    VerifiedIndex verified;
    auto sig = http_get(join_url(repo_url, repo::kSignatureFile), limits_for(config, config.max_signature_bytes));
    if (sig) {
        auto signer = repo::verify_detached(config.gnupghome, *text, *sig, config.trusted_fingerprints);
        if (!signer) return make_error(signer.error().status, signer.error().message + " (" + index_url + ")");
        verified.signer = std::move(*signer);
    } else if (sig.error().status != HARNESS_ERR_NOT_FOUND) {
        return sig.error();
    } else if (!config.allow_unsigned) {
        return make_error(HARNESS_ERR_AUTH, "missing signature: " + index_url +
                                                " has no index.json.sig (start with --allow-unsigned to accept that)");
    } else {
        warn(config, "index " + index_url + " is UNSIGNED; --allow-unsigned: using it anyway");
    }

    // Parse only bytes whose signature checked out (or that were accepted unsigned).
    auto index = repo::parse_index(*text);
    if (!index) return make_error(index.error().status, index.error().message + " (" + index_url + ")");

    auto seen = state.highest(repo_url);
    if (!seen) return seen.error();
    if (index->index_version < *seen)
        return make_error(HARNESS_ERR_AUTH, "rollback: " + index_url + " has index_version " +
                                                std::to_string(index->index_version) + ", older than version " +
                                                std::to_string(*seen) + " already seen");
    auto now = std::chrono::system_clock::now();
    if (index->expires <= now)
        return make_error(HARNESS_ERR_AUTH, "expired: " + index_url + " (index_version " +
                                                std::to_string(index->index_version) + ") expired at " +
                                                repo::format_utc(index->expires));
    // An unsigned index must not raise the bar: anyone could serve version 2^62.
    if (!verified.signer.empty() && index->index_version > *seen)
        if (auto r = state.record(repo_url, index->index_version); !r) return r.error();
    verified.index = std::move(*index);
    return verified;
}

} // namespace harness::fetch
