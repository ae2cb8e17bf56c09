#include "fetch_setup.hpp"

#include <harness/fetch/http_fetcher.hpp>

namespace harness::hcore {

Result<std::shared_ptr<Fetcher>> make_fetcher(const Settings &settings, Logger &log,
                                              std::shared_ptr<const PluginDirectory> directory) {
    auto gnupghome = settings.root / "gnupg";
    for (const auto &file : settings.import_keys) {
        auto imported = import_daemon_key(gnupghome, file);
        if (!imported)
            return make_error(imported.error().status,
                              "--import-key " + file.string() + ": " + imported.error().message);
        for (const auto &fpr : *imported) log.info("imported publisher key " + fpr + " from " + file.string());
    }
    if (settings.repositories.empty() && settings.trusted_fingerprints.empty() && !settings.allow_unsigned)
        return std::shared_ptr<Fetcher>();
    if (settings.trusted_fingerprints.empty() && !settings.allow_unsigned)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "--repo needs at least one --trust FINGERPRINT (or an explicit --allow-unsigned)");
    if (settings.allow_unsigned)
        log.warning("--allow-unsigned: plugins without a signature will be accepted from the repositories");
    FetchConfig config;
    config.repositories = settings.repositories;
    config.trusted_fingerprints = settings.trusted_fingerprints;
    config.gnupghome = gnupghome;
    config.allow_unsigned = settings.allow_unsigned;
    config.state_db = settings.var_dir() / "repositories.db";
    config.log = &log;
    config.repository_hints = [directory](const ComponentName &name) { return directory->repositories_for(name); };
    return make_http_fetcher(std::move(config));
}

}  // namespace harness::hcore
