// The bounds of one download, taken from the fetch configuration: the size
// limit is the caller's (index, signature or package), the timeouts and the
// redirect limit are the configuration's.
#pragma once

#include "curl_download.hpp"

#include <harness/fetch/http_fetcher.hpp>

namespace harness::fetch {

inline DownloadLimits limits_for(const FetchConfig &config, std::size_t max_bytes) {
    return {max_bytes, config.connect_timeout, config.transfer_timeout, config.max_redirects};
}

}  // namespace harness::fetch
