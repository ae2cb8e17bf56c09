// vm/web's request head parser and access rules on heads made up here: what
// is accepted, what each refusal's status is, where the token may come
// from, and the loopback Host check.
#include "http_request.hpp"
#include "access.hpp"
#include "settings.hpp"

#include <doctest/doctest.h>

#include <cstdlib>

using namespace harness::web;

namespace {

Request parsed(const std::string &head) {
    auto p = parse_request(head);
    REQUIRE_MESSAGE(p.request.has_value(), p.refusal.status << " " << p.refusal.reason);
    return *p.request;
}

int refused(const std::string &head) {
    auto p = parse_request(head);
    CHECK_MESSAGE(!p.request.has_value(), head);
    return p.refusal.status;
}

}  // namespace

TEST_CASE("a GET with a query, headers and cookies") {
    auto r = parsed("GET /api/jobs/7?token=ab%2Bc&x=a+b HTTP/1.1\r\nHost: localhost:80\r\nCookie: a=1; "
                    "harness_web=t0k\r\nX-Thing:  spaced  \r\n\r\n");
    CHECK(r.method == "GET");
    CHECK(r.path == "/api/jobs/7");
    CHECK(r.query["token"] == "ab+c");
    CHECK(r.query["x"] == "a b");
    CHECK(r.header("host") == "localhost:80");
    CHECK(r.header("x-thing") == "spaced");
    CHECK(r.cookie("harness_web") == "t0k");
    CHECK(r.cookie("a") == "1");
    CHECK(r.cookie("missing").empty());
    CHECK(parsed("GET / HTTP/1.0\n\n").http10);  // bare LF, and no Host in HTTP/1.0
    CHECK(parsed("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n").method == "HEAD");
}

TEST_CASE("where a head ends") {
    CHECK(head_end("GET / HTTP/1.1\r\nHost: x\r\n") == std::string::npos);
    CHECK(head_end("GET / HTTP/1.1\r\nHost: x\r\n\r\nbody") == 27);
    CHECK(head_end("GET / HTTP/1.0\n\n") == 16);
}

TEST_CASE("refusals and their statuses") {
    CHECK(refused("") == 400);
    CHECK(refused("GET /\r\n\r\n") == 400);
    CHECK(refused("GET  / HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
    CHECK(refused("GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
    CHECK(refused("G(T / HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
    CHECK(refused("GET / HTTX/1.1\r\nHost: x\r\n\r\n") == 400);
    CHECK(refused("GET / HTTP/1.1\r\n\r\n") == 400);
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n") == 400);
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n") == 400);
    CHECK(refused("GET /%4 HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
    CHECK(refused("GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
    CHECK(refused("GET /?a=%zz HTTP/1.1\r\nHost: x\r\n\r\n") == 400);
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n") == 400);
    CHECK(refused("DELETE / HTTP/1.1\r\nHost: x\r\n\r\n") == 405);
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n") == 413);
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n") == 413);
    CHECK(refused("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505);
    CHECK(refused("GET / HTTP/1.1\r\nHost: x\r\nX: " + std::string(kMaxHead, 'a') + "\r\n\r\n") == 431);
}

TEST_CASE("access: the token on a non-loopback bind, the Host on loopback") {
    const std::string token(64, 'a');
    const Access open(token, false), closed(token, true);

    CHECK(open.check(parsed("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n")).allowed);
    CHECK(open.check(parsed("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")).allowed);
    CHECK(open.check(parsed("GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n")).allowed);
    CHECK(open.check(parsed("GET / HTTP/1.0\r\n\r\n")).allowed);
    auto rebound = open.check(parsed("GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n"));
    CHECK(!rebound.allowed);
    CHECK(rebound.status == 403);

    auto none = closed.check(parsed("GET / HTTP/1.1\r\nHost: node\r\n\r\n"));
    CHECK(!none.allowed);
    CHECK(none.status == 401);
    CHECK(none.reason.find("no token") == 0);
    auto wrong = closed.check(parsed("GET /?token=" + std::string(64, 'b') + " HTTP/1.1\r\nHost: node\r\n\r\n"));
    CHECK(wrong.status == 401);
    CHECK(wrong.reason.find("a wrong token") == 0);
    auto url = closed.check(parsed("GET /?token=" + token + " HTTP/1.1\r\nHost: node\r\n\r\n"));
    CHECK(url.allowed);
    CHECK(url.token_in_url);
    CHECK(closed.check(parsed("GET / HTTP/1.1\r\nHost: node\r\nAuthorization: Bearer " + token + "\r\n\r\n")).allowed);
    CHECK(closed.check(parsed("GET / HTTP/1.1\r\nHost: node\r\nCookie: harness_web=" + token + "\r\n\r\n")).allowed);
    CHECK(!closed.check(parsed("GET / HTTP/1.1\r\nHost: node\r\nAuthorization: Basic " + token + "\r\n\r\n")).allowed);
}

TEST_CASE("settings from the environment") {
    CHECK(is_loopback("127.0.0.1"));
    CHECK(is_loopback("127.3.2.1"));
    CHECK(!is_loopback("0.0.0.0"));
    CHECK(!is_loopback("10.0.0.1"));
    CHECK(!is_loopback("localhost"));  // the bind setting is an address, not a name

    ::unsetenv("HARNESS_WEB_PORT");
    ::unsetenv("HARNESS_WEB_BIND");
    ::unsetenv("HARNESS_WEB_AUTH");
    CHECK(!WebSettings::from_environment()->enabled);
    ::setenv("HARNESS_WEB_PORT", "off", 1);
    CHECK(!WebSettings::from_environment()->enabled);
    ::setenv("HARNESS_WEB_PORT", "8080", 1);
    auto s = WebSettings::from_environment();
    REQUIRE(s.ok());
    CHECK(s->enabled);
    CHECK(s->port == 8080);
    CHECK(s->bind == "127.0.0.1");
    CHECK(!s->token_on_loopback);
    for (const char *bad : {"http", "65536", "-1", "123456"}) {
        ::setenv("HARNESS_WEB_PORT", bad, 1);
        CHECK_MESSAGE(!WebSettings::from_environment().ok(), bad);
    }
    ::setenv("HARNESS_WEB_PORT", "0", 1);
    ::setenv("HARNESS_WEB_BIND", "example.org", 1);
    CHECK(!WebSettings::from_environment().ok());
    ::setenv("HARNESS_WEB_BIND", "0.0.0.0", 1);
    ::setenv("HARNESS_WEB_AUTH", "token", 1);
    s = WebSettings::from_environment();
    REQUIRE(s.ok());
    CHECK(s->bind == "0.0.0.0");
    CHECK(s->token_on_loopback);
    ::setenv("HARNESS_WEB_AUTH", "none", 1);
    CHECK(!WebSettings::from_environment().ok());
}
