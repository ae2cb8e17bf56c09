#include "access.hpp"

#include "settings.hpp"

#include <harness/common/crypto.hpp>

namespace harness::web {

namespace {

// The host part of a Host header: "[::1]:8080" → "[::1]", "localhost:80" → "localhost".
std::string host_name(const std::string &host) {
    if (!host.empty() && host[0] == '[') return host.substr(0, host.find(']') + 1);
    return host.substr(0, host.find(':'));
}

bool names_loopback(const std::string &host) {
    const std::string name = host_name(host);
    return name == "localhost" || name == "[::1]" || is_loopback(name);
}

}  // namespace

bool Access::matches(const std::string &candidate) const {
    if (candidate.size() != token_.size()) return false;
    const auto *a = reinterpret_cast<const std::uint8_t *>(candidate.data());
    const auto *b = reinterpret_cast<const std::uint8_t *>(token_.data());
    return equal_constant_time({a, candidate.size()}, {b, token_.size()});
}

AccessDecision Access::check(const Request &request) const {
    AccessDecision d;
    if (!need_token_) {
        const std::string host = request.header("host");
        if (!host.empty() && !names_loopback(host)) {
            d.status = 403;
            d.reason = "this web view is bound to loopback and answers only requests for localhost or 127.0.0.1 "
                       "(Host was \"" +
                host + "\")";
            return d;
        }
        d.allowed = true;
        return d;
    }
    std::string bearer = request.header("authorization");
    if (bearer.rfind("Bearer ", 0) == 0)
        bearer = bearer.substr(7);
    else
        bearer.clear();
    auto in_url = request.query.find("token");
    if (in_url != request.query.end() && matches(in_url->second)) {
        d.allowed = true;
        d.token_in_url = true;
    } else if (matches(bearer) || matches(request.cookie(kCookie))) {
        d.allowed = true;
    } else {
        d.status = 401;
        d.reason = std::string(in_url != request.query.end() || !bearer.empty() ? "a wrong token" : "no token") +
            ": this web view needs the VM's web token. On a host with the VM key run `hconsole web-token` "
            "and open /?token=TOKEN (or send \"Authorization: Bearer TOKEN\").";
    }
    return d;
}

}  // namespace harness::web
