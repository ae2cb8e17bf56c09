// Hlib over UDP: sealed requests resent with the same request id until a
// sealed reply arrives, and a deadline that always ends the wait.
#include "fake_daemon.hpp"

#include <harness/hlib/hlib.hpp>

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::hlib;
using namespace std::chrono_literals;
using fake::ms_since;

namespace {

fake::Reply pong(std::uint8_t, std::span<const std::uint8_t>) {
    return {};
}

}  // namespace

TEST_CASE("a lost request is resent with the same request id") {
    fake::Daemon d({}, pong);
    d.udp_drop_first = 2;
    auto c = Connection::open_udp(d.endpoint(), fake::test_key(), deadline_in(1s));
    REQUIRE(c.ok());
    CHECK(c->transport() == Transport::udp);
    auto start = Clock::now();
    auto r = c->request(protocol::Type::ping, {}, deadline_in(3s));
    REQUIRE_MESSAGE(r.ok(), r.error().describe());
    auto ids = d.udp_request_ids();
    REQUIRE(ids.size() == 3);
    CHECK(ids[0] == ids[1]);
    CHECK(ids[1] == ids[2]);
    CHECK(ms_since(start) >= 55);  // 20 ms + 40 ms of backoff before the third send
    CHECK(ms_since(start) < 1000);

    // The next request gets a new id.
    REQUIRE(c->request(protocol::Type::ping, {}, deadline_in(3s)).ok());
    ids = d.udp_request_ids();
    REQUIRE(ids.size() == 4);
    CHECK(ids[3] != ids[0]);
}

TEST_CASE("a silent daemon ends in TIMEOUT at the deadline, after several attempts") {
    fake::Daemon d({}, [](std::uint8_t, std::span<const std::uint8_t>) { return fake::Reply{.drop = true}; });
    auto c = Connection::open_udp(d.endpoint(), fake::test_key(), deadline_in(1s));
    REQUIRE(c.ok());
    auto start = Clock::now();
    auto r = c->request(protocol::Type::ping, {}, deadline_in(400ms));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_TIMEOUT);
    CHECK(ms_since(start) >= 390);
    CHECK(ms_since(start) < 900);
    auto ids = d.udp_request_ids();
    CHECK(ids.size() >= 4);  // 0, 20, 60, 140, 300 ms
    CHECK(ids.size() <= 8);
}

TEST_CASE("replies sealed with another key are ignored") {
    fake::Daemon::Options o;
    o.key = fake::test_key(9);
    fake::Daemon d(o, pong);
    auto c = Connection::open_udp(d.endpoint(), fake::test_key(7), deadline_in(1s));
    REQUIRE(c.ok());
    auto r = c->request(protocol::Type::ping, {}, deadline_in(300ms));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_TIMEOUT);
    CHECK(d.requests(static_cast<std::uint8_t>(protocol::Type::ping)) == 0);  // and it refused ours
}

TEST_CASE("nothing listening is UNREACHABLE, quickly") {
    Endpoint nowhere{"127.0.0.1", fake::closed_port(SOCK_DGRAM)};
    auto c = Connection::open_udp(nowhere, fake::test_key(), deadline_in(1s));
    REQUIRE(c.ok());
    auto start = Clock::now();
    auto r = c->request(protocol::Type::ping, {}, deadline_in(2s));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_UNREACHABLE);
    CHECK(ms_since(start) < 1000);
}

TEST_CASE("an error reply carries the daemon's status and message") {
    fake::Daemon d({}, [](std::uint8_t, std::span<const std::uint8_t>) {
        return fake::Reply{.status = HARNESS_ERR_NOT_FOUND, .message = "no component x/y"};
    });
    auto c = Connection::open_udp(d.endpoint(), fake::test_key(), deadline_in(1s));
    REQUIRE(c.ok());
    Daemon daemon(std::move(*c));
    auto r = daemon.load({"x", "y"}, deadline_in(2s));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_NOT_FOUND);
    CHECK(r.error().message == "no component x/y");
}

TEST_CASE("two requests in flight on one UDP channel each get their own reply") {
    fake::Daemon d({}, [](std::uint8_t, std::span<const std::uint8_t> body) {
        harness::Unpacker u(body);
        std::string pkg, comp;
        (void)u.str(pkg);
        (void)u.str(comp);
        harness::Packer p;
        p.str(pkg + "-v");
        return fake::Reply{.body = p.take()};
    });
    auto c = Connection::open_udp(d.endpoint(), fake::test_key(), deadline_in(1s));
    REQUIRE(c.ok());
    auto body = [](std::string pkg) {
        harness::Packer p;
        p.str(pkg).str("c");
        return p.take();
    };
    auto a = c->send_request(protocol::Type::load, body("a"));
    auto b = c->send_request(protocol::Type::load, body("b"));
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    auto rb = c->receive_reply(*b, deadline_in(2s));
    auto ra = c->receive_reply(*a, deadline_in(2s));
    REQUIRE(ra.ok());
    REQUIRE(rb.ok());
    std::string va, vb;
    harness::Unpacker ua(*ra), ub(*rb);
    CHECK(ua.str(va));
    CHECK(ub.str(vb));
    CHECK(va == "a-v");
    CHECK(vb == "b-v");
}
