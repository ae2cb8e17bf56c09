// hconsole web-token: the token that opens the web view on a non-loopback
// bind (docs/webview.md). Computed from the key file, so it works without a
// running daemon and never sends the key anywhere.
#include "session.hpp"

#include <harness/vmview/web_token.hpp>

#include <nlohmann/json.hpp>

#include <ostream>

namespace harness::hconsole {

int Session::web_token() {
    const auto key_file = settings_.connect.resolved().key_file;
    auto key = load_key(key_file);
    if (!key) return fail("cannot read the VM key " + key_file.string() + ": " + key.error().describe());
    const std::string token = vmview::web_token(*key);
    if (settings_.json)
        out_ << nlohmann::json{{"token", token}}.dump() << std::endl;
    else
        out_ << token << std::endl;
    return 0;
}

}  // namespace harness::hconsole
