// Builds the resolver's HTTP step from the settings: null when nothing could
// ever be fetched (no --repo, no --trust, no --allow-unsigned). Locations
// published into the directory are tried before the configured --repo URLs.
#pragma once

#include "plugin_directory.hpp"
#include "settings.hpp"

#include <harness/common/loader.hpp>
#include <harness/common/log.hpp>

#include <memory>

namespace harness::hcore {

Result<std::shared_ptr<Fetcher>> make_fetcher(const Settings &settings, Logger &log,
                                              std::shared_ptr<const PluginDirectory> directory);

}  // namespace harness::hcore
