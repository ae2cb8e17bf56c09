// The vm/web plugin's state: when HARNESS_WEB_PORT is set, an HTTP server on
// HARNESS_WEB_BIND (loopback by default) serving the page, the JSON API and
// the live feed (docs/webview.md):
//
//   /              the page (page.html)
//   /api/vm        `hostinfo --json`
//   /api/jobs      {"jobs": [`cominfo --json` …], "total", "notes"}
//   /api/jobs/<J>  `cominfo --job J --json`
//   /events        server-sent events: "state" with {"vm", "jobs", "time_ms"} on every change
#pragma once

#include "access.hpp"
#include "feed.hpp"
#include "http_server.hpp"
#include "settings.hpp"
#include "vm_source.hpp"

#include <harness/common/plugin.h>

#include <memory>
#include <optional>
#include <string>

namespace harness::web {

class WebView {
public:
    // Reads the settings from the environment; serves when they say so.
    static Result<std::unique_ptr<WebView>> create(const harness_host_api *host);
    ~WebView();

    // "http://ADDRESS:PORT/", or "" when the view is off.
    std::string url() const;

private:
    WebView(const harness_host_api *host, WebSettings settings, std::string token);
    Response handle(const Request &request);
    Response events();
    void log(int level, const std::string &message) const;

    const harness_host_api *host_;
    WebSettings settings_;
    VmSource source_;
    Access access_;
    // Declared before the server: the server's streams read the feed, so the
    // server (destroyed first) stops them before the feed goes.
    std::unique_ptr<Feed> feed_;
    std::unique_ptr<HttpServer> server_;
};

}  // namespace harness::web
