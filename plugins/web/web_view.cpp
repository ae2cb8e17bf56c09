#include "web_view.hpp"

#include "page.hpp"

#include <harness/vmview/web_token.hpp>

#include <chrono>

namespace harness::web {

namespace {

using namespace std::chrono_literals;

Response json_response(int status, const nlohmann::json &body) {
    Response r;
    r.status = status;
    r.content_type = "application/json";
    r.headers.emplace_back("Cache-Control", "no-store");
    r.body = to_text(body) + "\n";
    return r;
}

Response error_json(const Error &e) {
    return json_response(e.status == HARNESS_ERR_NOT_FOUND ? 404 : 502, {{"error", e.describe()}});
}

Response text(int status, std::string body) {
    Response r;
    r.status = status;
    r.body = std::to_string(status) + " " + status_text(status) + ": " + body + "\n";
    return r;
}

bool valid_job_id(const std::string &id) {
    return !id.empty() && id.size() <= 64 && id.find('/') == std::string::npos;
}

}  // namespace

Result<std::unique_ptr<WebView>> WebView::create(const harness_host_api *host) {
    if (!HARNESS_HOST_HAS(host, root_dir) || !HARNESS_HOST_HAS(host, key_file) || !HARNESS_HOST_HAS(host, list_members))
        return make_error(HARNESS_ERR_NOT_SUPPORTED,
                          "vm/web needs a daemon host (ABI 1.1: root_dir, key_file, "
                          "list_members)");
    auto settings = WebSettings::from_environment();
    if (!settings) return settings.error();
    std::string token;
    if (settings->enabled) {
        auto key = load_key(host->key_file(host->host));
        if (!key) return key.error();
        token = vmview::web_token(*key);
    }
    std::unique_ptr<WebView> view(new WebView(host, *settings, std::move(token)));
    if (!settings->enabled) {
        view->log(1, "vm/web: off (set HARNESS_WEB_PORT to serve the web view)");
        return view;
    }
    auto server = HttpServer::start(
        settings->bind, settings->port, [v = view.get()](const Request &r) { return v->handle(r); },
        [v = view.get()](int level, const std::string &m) { v->log(level, m); });
    if (!server) return server.error();
    view->server_ = std::move(*server);
    view->log(1,
              "vm/web: serving the web view on " + view->url() +
                  (is_loopback(settings->bind) && !settings->token_on_loopback
                       ? " (loopback: no token asked)"
                       : " (the token of `hconsole web-token` is required)"));
    return view;
}

WebView::WebView(const harness_host_api *host, WebSettings settings, std::string token)
    : host_(host), settings_(std::move(settings)), source_(host),
      access_(std::move(token), !is_loopback(settings_.bind) || settings_.token_on_loopback),
      feed_(settings_.enabled
                ? std::make_unique<Feed>(source_, [this](int level, const std::string &m) { log(level, m); })
                : nullptr) {}

WebView::~WebView() {
    if (server_) server_->stop();
}

std::string WebView::url() const {
    if (!server_) return "";
    return "http://" + settings_.bind + ":" + std::to_string(server_->port()) + "/";
}

void WebView::log(int level, const std::string &message) const {
    if (host_->log) host_->log(host_->host, level, message.c_str());
}

Response WebView::handle(const Request &request) {
    const AccessDecision access = access_.check(request);
    if (!access.allowed) {
        Response r = text(access.status, access.reason);
        if (access.status == 401) r.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"harness web view\"");
        return r;
    }
    Response r;
    const std::string &path = request.path;
    if (path == "/" || path == "/index.html") {
        if (access.token_in_url) {
            // The cookie carries the token from here on; the address bar
            // (and the history) keep only "/".
            r.status = 303;
            r.headers.emplace_back("Location", "/");
        } else {
            r.content_type = "text/html; charset=utf-8";
            r.body = std::string(kPage);
            r.headers.emplace_back("Cache-Control", "no-store");
            r.headers.emplace_back("Content-Security-Policy",
                                   "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                   "connect-src 'self'; frame-ancestors 'none'");
            r.headers.emplace_back("Referrer-Policy", "no-referrer");
        }
    } else if (path == "/events") {
        r = events();
    } else if (path == "/api/vm" || path == "/api/jobs" || path.rfind("/api/jobs/", 0) == 0) {
        const std::string job = path.size() > 10 && path.rfind("/api/jobs/", 0) == 0 ? path.substr(10) : "";
        if (path.rfind("/api/jobs/", 0) == 0 && !valid_job_id(job))
            return json_response(400, {{"error", "not a job id: \"" + job + "\""}});
        auto vm = source_.connect();
        if (!vm) return error_json(vm.error());
        auto body = path == "/api/vm" ? VmSource::vm_state(*vm)
            : job.empty()             ? VmSource::jobs(*vm)
                                      : VmSource::job(*vm, job);
        r = body ? json_response(200, *body) : error_json(body.error());
    } else {
        r = text(404, "no such page: the web view serves /, /api/vm, /api/jobs, /api/jobs/<job> and /events");
    }
    if (access.token_in_url)
        r.headers.emplace_back("Set-Cookie",
                               std::string(kCookie) + "=" + access_.token() + "; Path=/; HttpOnly; SameSite=Strict");
    return r;
}

Response WebView::events() {
    Response r;
    r.content_type = "text/event-stream";
    r.headers.emplace_back("Cache-Control", "no-store");
    r.stream = [this](StreamWriter &out) {
        Feed::Listener listening(*feed_);
        if (!out.write("retry: 2000\n\n")) return;
        std::uint64_t seen = 0;
        auto last_write = std::chrono::steady_clock::now();
        while (!out.finished()) {
            // Short waits, so a stopping server ends the stream soon.
            const Feed::State s = feed_->next(seen, 250ms);
            if (s.version != seen && s.json) {
                if (!out.write("event: state\ndata: " + *s.json + "\n\n")) return;
                seen = s.version;
                last_write = std::chrono::steady_clock::now();
            } else if (std::chrono::steady_clock::now() - last_write > 15s) {
                // A comment line: keeps proxies from closing an idle stream.
                if (!out.write(": keep-alive\n\n")) return;
                last_write = std::chrono::steady_clock::now();
            }
        }
    };
    return r;
}

}  // namespace harness::web
