// hpublish verify: the daemon's checks, run on a repository directory.
#include <harness/fetch/repo_keys.hpp>
#include <harness/publish/publish.hpp>

#include <fstream>
#include <sstream>

namespace harness::publish {

namespace fs = std::filesystem;

namespace {

Result<void> check_file(const fs::path &repo_dir, const repo::FileRef &ref) {
    auto bytes = read_file(repo_dir / ref.path);
    if (!bytes) return bytes.error();
    if (bytes->size() != ref.size)
        return make_error(HARNESS_ERR_AUTH,
                          "hash mismatch: " + ref.path + " has " + std::to_string(bytes->size()) +
                              " bytes, the index says " + std::to_string(ref.size));
    if (repo::sha256_hex(*bytes) != ref.sha256)
        return make_error(HARNESS_ERR_AUTH, "hash mismatch: SHA-256 of " + ref.path + " differs from the index");
    return {};
}

}  // namespace

Result<repo::RepoIndex> verify_repository(const fs::path &repo_dir, const fs::path &gnupghome,
                                          const std::vector<std::string> &trusted) {
    auto text = read_file(repo_dir / repo::kIndexFile);
    if (!text) return text.error();
    auto sig = read_file(repo_dir / repo::kSignatureFile);
    if (!sig)
        return make_error(HARNESS_ERR_AUTH, "missing signature: no " + (repo_dir / repo::kSignatureFile).string());
    auto signer = repo::verify_detached(gnupghome, *text, *sig, trusted);
    if (!signer) return signer.error();
    auto index = repo::parse_index(*text);
    if (!index) return index.error();
    if (index->expires <= std::chrono::system_clock::now())
        return make_error(HARNESS_ERR_AUTH, "expired: the index expired at " + repo::format_utc(index->expires));
    for (const auto &e : index->components) {
        if (auto r = check_file(repo_dir, e.shared_object); !r) return r.error();
        if (auto r = check_file(repo_dir, e.manifest); !r) return r.error();
    }
    return index;
}

}  // namespace harness::publish
