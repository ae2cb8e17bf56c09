// HOST:PORT parsing (harness/common/endpoint.hpp).
#include <harness/common/endpoint.hpp>

#include <doctest/doctest.h>

using harness::Endpoint;
using harness::parse_endpoint;

TEST_CASE("valid endpoints") {
    CHECK(parse_endpoint("127.0.0.1:7001").value() == Endpoint{"127.0.0.1", 7001});
    CHECK(parse_endpoint("localhost:0").value() == Endpoint{"localhost", 0});
    CHECK(parse_endpoint("h:65535").value() == Endpoint{"h", 65535});
    CHECK(parse_endpoint("[::1]:80").value() == Endpoint{"::1", 80});
    CHECK(parse_endpoint("host.example.org:443").value().host == "host.example.org");
}

TEST_CASE("to_string") {
    CHECK(Endpoint{"127.0.0.1", 7001}.to_string() == "127.0.0.1:7001");
    auto e = parse_endpoint("10.0.0.2:9");
    REQUIRE(e.ok());
    CHECK(parse_endpoint(e->to_string()).value() == e.value());
}

TEST_CASE("invalid endpoints") {
    for (const char *text :
         {"", "nocolon", ":80", "h:", "h:65536", "h:-1", "h:80x", "h: 80", "h:+80", "h:99999999999999999999"}) {
        CAPTURE(text);
        auto e = parse_endpoint(text);
        REQUIRE_FALSE(e.ok());
        CHECK(e.error().status == HARNESS_ERR_INVALID_ARGUMENT);
    }
}
