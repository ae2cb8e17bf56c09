// The web view's settings, read from the daemon's environment when the
// plugin starts (docs/webview.md): off unless HARNESS_WEB_PORT is set.
//
//   HARNESS_WEB_PORT   TCP port to serve on; unset, empty or "off": no server;
//                      0: any free port (the log and `vm/web status` say which)
//   HARNESS_WEB_BIND   IPv4 address to bind, default 127.0.0.1 (loopback)
//   HARNESS_WEB_AUTH   "auto" (default): the token is required unless bound to
//                      loopback; "token": required on loopback too
#pragma once

#include <harness/common/result.hpp>

#include <cstdint>
#include <string>

namespace harness::web {

struct WebSettings {
    bool enabled = false;
    std::string bind = "127.0.0.1";
    std::uint16_t port = 0;
    bool token_on_loopback = false;

    static Result<WebSettings> from_environment();
};

// True for an address in 127.0.0.0/8: only processes on this host reach it.
bool is_loopback(const std::string &ipv4);

}  // namespace harness::web
