// Hlib's stream connections: the mutual HMAC handshake, framed requests and
// replies, and deadlines on every wait.
#include "fake_daemon.hpp"

#include <harness/hlib/hlib.hpp>

#include <doctest/doctest.h>

#include <cstdlib>

using namespace harness;
using namespace harness::hlib;
using namespace std::chrono_literals;
using fake::ms_since;

namespace {

Bytes members_body() {
    Packer p;
    p.u64(2);
    p.str("a").str("127.0.0.1:1").str("127.0.0.1:1").i32(HARNESS_MEMBER_ALIVE).i64(3);
    p.str("b").str("10.0.0.2:7001").str("10.0.0.2:7001").i32(HARNESS_MEMBER_FAILED).i64(9000);
    return p.take();
}

Bytes loaded_body() {
    Packer p;
    p.u64(1);
    p.str("examples").str("math").str("1.2.0").i32(HARNESS_LEVEL_DAEMON).i32(HARNESS_PER_DAEMON);
    p.u64(2);
    p.str("add").i32(HARNESS_CALL_AUTO).i32(HARNESS_MODE_INLINE).str("i64(i64,i64)");
    p.str("stats").i32(HARNESS_CALL_PACKED).i32(HARNESS_MODE_THREAD).str("");
    return p.take();
}

fake::Reply answer(std::uint8_t type, std::span<const std::uint8_t>) {
    switch (static_cast<protocol::Type>(type)) {
    case protocol::Type::members: return {.body = members_body()};
    case protocol::Type::loaded: return {.body = loaded_body()};
    case protocol::Type::ping: return {};
    default: return {.status = HARNESS_ERR_NOT_SUPPORTED, .message = "not in this fake"};
    }
}

}  // namespace

TEST_CASE("handshake, then requests over TCP") {
    fake::Daemon::Options o;
    o.id = "daemon-1";
    fake::Daemon d(o, answer);
    auto c = Connection::open_tcp(d.endpoint(), fake::test_key(), deadline_in(2s));
    REQUIRE_MESSAGE(c.ok(), c.error().describe());
    CHECK(c->peer_id() == "daemon-1");
    CHECK(c->vm() == "testvm");
    Daemon daemon(std::move(*c));
    CHECK(daemon.ping(deadline_in(2s)).ok());

    auto members = daemon.members(deadline_in(2s));
    REQUIRE(members.ok());
    REQUIRE(members->size() == 2);
    CHECK((*members)[0].id == "a");
    CHECK((*members)[0].alive);
    CHECK((*members)[0].silent_ms == 3);
    CHECK((*members)[1].tcp == Endpoint{"10.0.0.2", 7001});
    CHECK_FALSE((*members)[1].alive);

    auto loaded = daemon.loaded(deadline_in(2s));
    REQUIRE(loaded.ok());
    REQUIRE(loaded->size() == 1);
    CHECK((*loaded)[0].name.to_string() == "examples/math");
    CHECK((*loaded)[0].version == "1.2.0");
    REQUIRE((*loaded)[0].functions.size() == 2);
    CHECK((*loaded)[0].functions[0].signature == "i64(i64,i64)");
    CHECK((*loaded)[0].functions[1].convention == HARNESS_CALL_PACKED);
    CHECK((*loaded)[0].functions[1].default_mode == HARNESS_MODE_THREAD);

    auto refused = daemon.add({"h", 1}, deadline_in(2s));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK(refused.error().message == "not in this fake");
}

TEST_CASE("handshake over a Unix socket") {
    fake::Daemon::Options o;
    o.unix_path = std::filesystem::temp_directory_path() / ("hlib-test-" + std::to_string(::getpid()) + ".sock");
    fake::Daemon d(o, answer);
    auto c = Connection::open_unix(o.unix_path, fake::test_key(), deadline_in(2s));
    REQUIRE_MESSAGE(c.ok(), c.error().describe());
    CHECK(c->transport() == Transport::unix_socket);
    CHECK(c->request(protocol::Type::ping, {}, deadline_in(2s)).ok());
    std::filesystem::remove(o.unix_path);
}

TEST_CASE("a daemon without the VM key is refused (mutual authentication)") {
    fake::Daemon::Options o;
    o.honest = false;
    fake::Daemon d(o, answer);
    auto c = Connection::open_tcp(d.endpoint(), fake::test_key(), deadline_in(2s));
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().status == HARNESS_ERR_AUTH);
}

TEST_CASE("a client with the wrong key is refused") {
    fake::Daemon d({}, answer);
    auto c = Connection::open_tcp(d.endpoint(), fake::test_key(3), deadline_in(2s));
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().status == HARNESS_ERR_AUTH);
    CHECK(d.requests(static_cast<std::uint8_t>(protocol::Type::ping)) == 0);
}

TEST_CASE("no daemon: UNREACHABLE; a mute one: TIMEOUT at the deadline") {
    auto refused = Connection::open_tcp({"127.0.0.1", fake::closed_port()}, fake::test_key(), deadline_in(2s));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().status == HARNESS_ERR_UNREACHABLE);

    auto no_socket = Connection::open_unix("/nonexistent/hcored.sock", fake::test_key(), deadline_in(2s));
    REQUIRE_FALSE(no_socket.ok());
    CHECK(no_socket.error().status == HARNESS_ERR_UNREACHABLE);

    fake::Daemon::Options o;
    o.silent = true;
    fake::Daemon mute(o, answer);
    auto start = Clock::now();
    auto c = Connection::open_tcp(mute.endpoint(), fake::test_key(), deadline_in(300ms));
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().status == HARNESS_ERR_TIMEOUT);
    CHECK(ms_since(start) >= 290);
    CHECK(ms_since(start) < 1000);
}

TEST_CASE("a slow reply times out, and a late reply is not taken for the next request's") {
    std::atomic<int> calls{0};
    fake::Daemon d({}, [&](std::uint8_t, std::span<const std::uint8_t>) {
        Packer p;
        p.str("reply-" + std::to_string(++calls));
        return fake::Reply{.body = p.take(), .delay = calls == 1 ? 300ms : 0ms};
    });
    auto c = Connection::open_tcp(d.endpoint(), fake::test_key(), deadline_in(2s));
    REQUIRE(c.ok());
    Daemon daemon(std::move(*c));
    auto slow = daemon.load({"a", "b"}, deadline_in(100ms));
    REQUIRE_FALSE(slow.ok());
    CHECK(slow.error().status == HARNESS_ERR_TIMEOUT);
    CHECK(daemon.connection().is_open());
    auto next = daemon.load({"a", "b"}, deadline_in(2s));
    REQUIRE_MESSAGE(next.ok(), next.error().describe());
    CHECK(*next == "reply-2");
}

TEST_CASE("a daemon that dies mid-request is UNREACHABLE, not a hang") {
    auto d = std::make_unique<fake::Daemon>(
        fake::Daemon::Options{}, [](std::uint8_t, std::span<const std::uint8_t>) { return fake::Reply{.drop = true}; });
    auto c = Connection::open_tcp(d->endpoint(), fake::test_key(), deadline_in(2s));
    REQUIRE(c.ok());
    auto id = c->send_request(protocol::Type::ping, {});
    REQUIRE(id.ok());
    std::thread killer([&] {
        std::this_thread::sleep_for(100ms);
        d->stop();
    });
    auto start = Clock::now();
    auto r = c->receive_reply(*id, deadline_in(5s));
    killer.join();
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_UNREACHABLE);
    CHECK(ms_since(start) < 2000);
    CHECK_FALSE(c->is_open());
}

TEST_CASE("ConnectOptions::resolved follows the environment and defaults") {
    ::setenv("HARNESS_ROOT", "/tmp/hroot", 1);
    ::unsetenv("HARNESS_KEY");
    ::unsetenv("HARNESS_HCORE");
    auto o = ConnectOptions{}.resolved();
    CHECK(o.root == "/tmp/hroot");
    CHECK(o.key_file == "/tmp/hroot/vm.key");
    CHECK_FALSE(o.hcore.has_value());

    ::setenv("HARNESS_HCORE", "10.1.2.3:7005", 1);
    ::setenv("HARNESS_KEY", "/etc/k", 1);
    o = ConnectOptions{}.resolved();
    REQUIRE(o.hcore.has_value());
    CHECK(*o.hcore == Endpoint{"10.1.2.3", 7005});
    CHECK(o.key_file == "/etc/k");

    ConnectOptions given;
    given.root = "/r";
    given.key_file = "/r/k";
    given.hcore = Endpoint{"h", 1};
    o = given.resolved();
    CHECK(o.root == "/r");
    CHECK(o.key_file == "/r/k");
    CHECK(*o.hcore == Endpoint{"h", 1});

    ::unsetenv("HARNESS_ROOT");
    ::unsetenv("HARNESS_KEY");
    ::unsetenv("HARNESS_HCORE");
    ::setenv("HOME", "/home/someone", 1);
    o = ConnectOptions{}.resolved();
    CHECK(o.root == "/home/someone/.harness");
}
