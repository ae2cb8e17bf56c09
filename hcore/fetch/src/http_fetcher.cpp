// The Fetcher: repositories in order, one download per component at a time.
#include <harness/fetch/http_fetcher.hpp>

#include "cache_writer.hpp"
#include "index_fetch.hpp"
#include "index_state.hpp"
#include "package_fetch.hpp"

#include <algorithm>
#include <fstream>
#include <future>
#include <map>
#include <mutex>

namespace harness {

namespace {

namespace fs = std::filesystem;
using fetch::IndexState;

// A cache entry another caller finished while we waited for the lock (the
// resolver looked before we got here). Same stamp format as the resolver's.
std::optional<ResolvedPlugin> valid_cache_entry(const fs::path &cache_lib, const ComponentName &n) {
    fs::path dir = cache_lib / n.package;
    std::ifstream in(dir / (n.component + ".fetched"));
    long long until = 0;
    if (!(in >> until)) return std::nullopt;
    auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
    if (now.count() >= until) return std::nullopt;
    ResolvedPlugin p{dir / (n.component + ".so"), dir / (n.component + ".json"), PluginOrigin::cache};
    std::error_code ec;
    if (!fs::is_regular_file(p.shared_object, ec) || !fs::is_regular_file(p.manifest, ec)) return std::nullopt;
    return p;
}

class HttpFetcher final : public Fetcher {
public:
    explicit HttpFetcher(FetchConfig config) : config_(std::move(config)), state_(config_.state_db) {}

    Result<ResolvedPlugin> fetch(const ComponentName &name, const fs::path &cache_lib_dir) override {
        Key key{cache_lib_dir, name};
        std::promise<Result<ResolvedPlugin>> promise;
        std::shared_future<Result<ResolvedPlugin>> shared;
        {
            std::lock_guard lock(mutex_);
            if (auto it = in_flight_.find(key); it != in_flight_.end()) {
                shared = it->second;
            } else {
                in_flight_.emplace(key, promise.get_future().share());
            }
        }
        if (shared.valid()) {
            debug("waiting for the download of " + name.to_string() + " already in progress");
            return shared.get();
        }
        Result<ResolvedPlugin> result = make_error(HARNESS_ERR_INTERNAL, "fetch did not run");
        try {
            result = fetch_once(name, cache_lib_dir);
        } catch (const std::exception &e) {
            result = make_error(HARNESS_ERR_INTERNAL, std::string("fetch: ") + e.what());
        }
        promise.set_value(result);
        std::lock_guard lock(mutex_);
        in_flight_.erase(key);
        return result;
    }

private:
    using Key = std::pair<fs::path, ComponentName>;

    void debug(const std::string &m) const {
        if (config_.log) config_.log->debug(m);
    }
    void info(const std::string &m) const {
        if (config_.log) config_.log->info(m);
    }
    void warning(const std::string &m) const {
        if (config_.log) config_.log->warning(m);
    }
    void refuse(const std::string &m) const {
        if (config_.log) config_.log->error(m);
    }

    Result<ResolvedPlugin> fetch_once(const ComponentName &name, const fs::path &cache_lib_dir) {
        if (auto cached = valid_cache_entry(cache_lib_dir, name)) return *cached;
        std::vector<std::pair<std::string, Error>> failures;
        for (const auto &url : repositories_for(name)) {
            auto r = fetch_from(url, name, cache_lib_dir);
            if (r) return r;
            refuse("fetch " + name.to_string() + " from " + url + " refused: " + r.error().message);
            failures.emplace_back(url, r.error());
        }
        if (failures.empty())
            return make_error(HARNESS_ERR_NOT_FOUND,
                              "not in index: no repository configured or published for " + name.to_string());
        if (failures.size() == 1) return failures.front().second;
        // Several repositories: say what each one did; the status is the first
        // real refusal rather than "not found" from a repository that simply
        // does not carry the component.
        int status = HARNESS_ERR_NOT_FOUND;
        std::string message = failures.front().second.message;
        for (const auto &[url, e] : failures)
            if (e.status != HARNESS_ERR_NOT_FOUND) {
                status = e.status;
                message = e.message;
                break;
            }
        for (const auto &[url, e] : failures) message += "; [" + url + "] " + e.message;
        return make_error(status, message);
    }

    // Published locations first (newest first), then the configured ones;
    // each URL once, and only http(s).
    std::vector<std::string> repositories_for(const ComponentName &name) const {
        std::vector<std::string> urls;
        auto add = [&](const std::string &url) {
            bool http = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
            if (!http) return warning("ignoring published repository " + url + ": only http:// and https://");
            if (std::find(urls.begin(), urls.end(), url) == urls.end()) urls.push_back(url);
        };
        if (config_.repository_hints)
            for (const auto &url : config_.repository_hints(name)) add(url);
        for (const auto &url : config_.repositories) add(url);
        return urls;
    }

    Result<ResolvedPlugin> fetch_from(const std::string &url, const ComponentName &name,
                                      const fs::path &cache_lib_dir) {
        auto verified = fetch::fetch_verified_index(url, config_, state_);
        if (!verified) return verified.error();
        Result<fetch::Package> package = make_error(HARNESS_ERR_INTERNAL, "");
        if (!verified->index) {
            warning("fetching " + name.to_string() + " from " + url + " UNVERIFIED (--allow-unsigned, no index)");
            package = fetch::fetch_plain_package(url, name, config_);
        } else {
            const repo::IndexEntry *entry = verified->index->find(name);
            if (!entry)
                return make_error(HARNESS_ERR_NOT_FOUND,
                                  "not in index: " + name.to_string() + " is not in " + url + " (index_version " +
                                      std::to_string(verified->index->index_version) + ")");
            package = fetch::fetch_indexed_package(url, *entry, name, config_);
        }
        if (!package) return package.error();
        auto until = std::chrono::system_clock::now() + package->ttl;
        auto where = fetch::write_cache_entry(cache_lib_dir, name, package->so_bytes, package->manifest_bytes, until);
        if (!where) return where.error();
        info("fetched " + name.to_string() + " " + package->version + " from " + url +
             (verified->signer.empty() ? std::string(" (unsigned)") : " (index signed by " + verified->signer + ")") +
             ", " + std::to_string(package->so_bytes.size()) + " bytes, cached for " +
             std::to_string(package->ttl.count()) + " s");
        return where;
    }

    FetchConfig config_;
    IndexState state_;
    std::mutex mutex_;
    std::map<Key, std::shared_future<Result<ResolvedPlugin>>> in_flight_;
};

}  // namespace

Result<void> prepare_daemon_gnupghome(const fs::path &gnupghome) {
    if (auto home = repo::ensure_gnupghome(gnupghome); !home) return home;
    fs::path conf = gnupghome / "gpg.conf";
    std::error_code ec;
    if (fs::exists(conf, ec)) return {};
    std::ofstream out(conf);
    out << "# Written by hcored: this GNUPGHOME only verifies signatures; no gpg-agent.\n"
           "no-autostart\n";
    if (!out.flush()) return make_error(HARNESS_ERR_INTERNAL, "cannot write " + conf.string());
    return {};
}

Result<std::vector<std::string>> import_daemon_key(const fs::path &gnupghome, const fs::path &key_file) {
    if (auto home = prepare_daemon_gnupghome(gnupghome); !home) return home.error();
    return repo::import_public_key(gnupghome, key_file);
}

Result<std::shared_ptr<Fetcher>> make_http_fetcher(FetchConfig config) {
    for (const auto &url : config.repositories)
        if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
            return make_error(HARNESS_ERR_INVALID_ARGUMENT, "repository " + url + ": only http:// and https:// URLs");
    for (auto &fpr : config.trusted_fingerprints) {
        auto full = repo::normalize_fingerprint(fpr);
        if (full.empty())
            return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                              "--trust " + fpr + ": give the key's full fingerprint (40 hex digits), not a key id");
        fpr = full;
    }
    if (!config.repositories.empty() && config.trusted_fingerprints.empty() && !config.allow_unsigned)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "repositories configured but no trusted fingerprint (--trust) and no --allow-unsigned");
    if (config.state_db.empty()) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "no index state database path");
    if (auto home = prepare_daemon_gnupghome(config.gnupghome); !home) return home.error();
    if (config.allow_unsigned && config.log)
        config.log->warning("--allow-unsigned: plugins from unsigned repositories will be loaded unverified");
    return std::shared_ptr<Fetcher>(std::make_shared<HttpFetcher>(std::move(config)));
}

}  // namespace harness
