#include <harness/common/endpoint.hpp>

#include <charconv>

namespace harness {

Result<Endpoint> parse_endpoint(std::string_view text) {
    auto bad = [&](const char *why) {
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "bad address \"" + std::string(text) + "\": " + why);
    };
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return bad("expected HOST:PORT");
    std::string_view host = text.substr(0, colon);
    std::string_view port = text.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || ec != std::errc() || end != port.data() + port.size() || value > 65535)
        return bad("port must be a number from 0 to 65535");
    return Endpoint{std::string(host), static_cast<std::uint16_t>(value)};
}

}  // namespace harness
