// Builds the resolver's HTTP step from the settings: null when no repository
// is configured (lib/ and cache/ only).
#pragma once

#include "settings.hpp"

#include <harness/loader.hpp>
#include <harness/log.hpp>

#include <memory>

namespace harness::hcore {

Result<std::shared_ptr<Fetcher>> make_fetcher(const Settings &settings, Logger &log);

} // namespace harness::hcore
