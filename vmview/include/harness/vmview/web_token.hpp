// The web view's access token (docs/webview.md): an HMAC-SHA256 of a fixed
// label under the VM key, as hex. Whoever holds the key file can compute it
// (`hconsole web-token`), the plugin checks it, and the key itself never
// travels in a URL or a cookie.
#pragma once

#include <harness/common/crypto.hpp>

#include <string>

namespace harness::vmview {

std::string web_token(const VmKey &key);

}  // namespace harness::vmview
