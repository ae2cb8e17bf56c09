#include "settings.hpp"

#include <arpa/inet.h>

#include <cstdlib>

namespace harness::web {

namespace {

std::string env(const char *name) {
    const char *v = std::getenv(name);
    return v ? v : "";
}

}  // namespace

bool is_loopback(const std::string &ipv4) {
    in_addr a{};
    return ::inet_pton(AF_INET, ipv4.c_str(), &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}

Result<WebSettings> WebSettings::from_environment() {
    WebSettings s;
    const std::string port = env("HARNESS_WEB_PORT");
    if (port.empty() || port == "off") return s;
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "HARNESS_WEB_PORT=" + port + " is not a TCP port (0-65535, or \"off\")");
    s.enabled = true;
    s.port = static_cast<std::uint16_t>(std::stoul(port));
    if (const std::string bind = env("HARNESS_WEB_BIND"); !bind.empty()) {
        in_addr a{};
        if (::inet_pton(AF_INET, bind.c_str(), &a) != 1)
            return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                              "HARNESS_WEB_BIND=" + bind + " is not an IPv4 address (such as 127.0.0.1 or 0.0.0.0)");
        s.bind = bind;
    }
    const std::string auth = env("HARNESS_WEB_AUTH");
    if (!auth.empty() && auth != "auto" && auth != "token")
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "HARNESS_WEB_AUTH=" + auth + " is not \"auto\" or \"token\"");
    s.token_on_loopback = auth == "token";
    return s;
}

}  // namespace harness::web
