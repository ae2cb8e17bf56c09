#include "fetch_setup.hpp"

namespace harness::hcore {

Result<std::shared_ptr<Fetcher>> make_fetcher(const Settings &settings, Logger &)
{
    if (settings.repositories.empty() && settings.import_keys.empty()) return std::shared_ptr<Fetcher>();
    return make_error(HARNESS_ERR_NOT_SUPPORTED, "plugin repositories (--repo) are not supported by this build yet");
}

} // namespace harness::hcore
