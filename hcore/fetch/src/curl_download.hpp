// One bounded HTTP(S) GET with libcurl.
//
// Only http and https (also after redirects), at most max_redirects redirects,
// connect and total timeouts, and the body is abandoned the moment it would
// exceed max_bytes (an attacker's endless stream costs us max_bytes + 1).
// Errors start with their reason: "unreachable", "too large", "not found".
#pragma once

#include <harness/common/result.hpp>

#include <chrono>
#include <cstddef>
#include <string>

namespace harness::fetch {

struct DownloadLimits {
    std::size_t max_bytes = 0;
    std::chrono::milliseconds connect_timeout{5000};
    std::chrono::milliseconds transfer_timeout{60000};
    long max_redirects = 3;
};

// On HTTP 404 the error has status HARNESS_ERR_NOT_FOUND, so a caller can tell
// "the file is not there" (a missing signature) from "the server is not there".
Result<std::string> http_get(const std::string &url, const DownloadLimits &limits);

// base "http://h/repo" or "http://h/repo/" joined with "a/b".
std::string join_url(const std::string &base, const std::string &relative);

}  // namespace harness::fetch
