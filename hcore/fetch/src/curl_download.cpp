#include "curl_download.hpp"

#include <curl/curl.h>

#include <memory>
#include <mutex>

namespace harness::fetch {

namespace {

struct Sink {
    std::string body;
    std::size_t max_bytes = 0;
    bool too_large = false;
};

std::size_t on_data(char *ptr, std::size_t size, std::size_t nmemb, void *user) {
    auto *sink = static_cast<Sink *>(user);
    std::size_t n = size * nmemb;
    if (n > sink->max_bytes - sink->body.size()) {
        sink->too_large = true;
        return 0;  // makes curl fail the transfer with CURLE_WRITE_ERROR
    }
    sink->body.append(ptr, n);
    return n;
}

struct CurlDeleter {
    void operator()(CURL *c) const { curl_easy_cleanup(c); }
};

}  // namespace

std::string join_url(const std::string &base, const std::string &relative) {
    if (!base.empty() && base.back() == '/') return base + relative;
    return base + "/" + relative;
}

Result<std::string> http_get(const std::string &url, const DownloadLimits &limits) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });

    std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl) return make_error(HARNESS_ERR_INTERNAL, "curl_easy_init failed");
    Sink sink;
    sink.max_bytes = limits.max_bytes;
    char errbuf[CURL_ERROR_SIZE] = {};
    CURL *c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, limits.max_redirects);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(limits.connect_timeout.count()));
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(limits.transfer_timeout.count()));
    // A server that announces more than we accept is refused before the body.
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(limits.max_bytes));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // we run on many threads
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "hcored/1 (HARNESS plugin fetcher)");
    // No Accept-Encoding: a compressed body could expand past every bound.

    CURLcode rc = curl_easy_perform(c);
    if (sink.too_large || rc == CURLE_FILESIZE_EXCEEDED)
        return make_error(HARNESS_ERR_TOO_LARGE,
                          "too large: " + url + " is longer than the " + std::to_string(limits.max_bytes) +
                              " bytes allowed");
    if (rc == CURLE_OPERATION_TIMEDOUT)
        return make_error(HARNESS_ERR_TIMEOUT, "unreachable: " + url + " timed out (" + errbuf + ")");
    if (rc == CURLE_UNSUPPORTED_PROTOCOL)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "refused protocol: " + url + " (only http and https)");
    if (rc == CURLE_TOO_MANY_REDIRECTS)
        return make_error(HARNESS_ERR_UNREACHABLE,
                          "unreachable: " + url + ": more than " + std::to_string(limits.max_redirects) + " redirects");
    if (rc != CURLE_OK)
        return make_error(HARNESS_ERR_UNREACHABLE,
                          "unreachable: " + url + ": " + (errbuf[0] ? errbuf : curl_easy_strerror(rc)));
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    if (code == 404 || code == 410)
        return make_error(HARNESS_ERR_NOT_FOUND, "not found: " + url + " (HTTP " + std::to_string(code) + ")");
    if (code != 200)
        return make_error(HARNESS_ERR_UNREACHABLE, "unreachable: " + url + " answered HTTP " + std::to_string(code));
    return std::move(sink.body);
}

}  // namespace harness::fetch
