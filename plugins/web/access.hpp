// Who may read the web view (docs/webview.md, "Security"). On a loopback
// bind only processes of this host can connect (a browser on the same
// workstation, or through an SSH tunnel): the token is not asked there
// (unless HARNESS_WEB_AUTH=token), but the Host header must name loopback,
// so a web page elsewhere cannot read the view through DNS rebinding. On any
// other bind every request carries the token — as ?token=, an
// "Authorization: Bearer" header, or the cookie the server sets when a
// token arrives in the URL — or gets 401.
#pragma once

#include "http_request.hpp"

#include <string>

namespace harness::web {

inline constexpr const char *kCookie = "harness_web";

struct AccessDecision {
    bool allowed = false;
    int status = 200;           // 401 or 403 when refused
    std::string reason;         // the body of a refusal
    bool token_in_url = false;  // a good ?token=: set the cookie (and, for the page, drop it from the URL)
};

class Access {
public:
    Access(std::string token, bool need_token) : token_(std::move(token)), need_token_(need_token) {}
    AccessDecision check(const Request &request) const;
    const std::string &token() const { return token_; }

private:
    bool matches(const std::string &candidate) const;
    std::string token_;
    bool need_token_;
};

}  // namespace harness::web
