// harness/common/endpoint.hpp — "HOST:PORT" addresses as written on command lines.
#pragma once

#include <harness/common/result.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace harness {

struct Endpoint {
    std::string host;
    std::uint16_t port = 0;

    std::string to_string() const { return host + ":" + std::to_string(port); }
    bool operator==(const Endpoint &) const = default;
};

// Accepts "host:port", "[v6]:port"; the port must be 0–65535.
Result<Endpoint> parse_endpoint(std::string_view text);

}  // namespace harness
