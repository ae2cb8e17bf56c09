// Limits that keep one client from taking a daemon down: connections that
// never authenticate are closed after --auth-timeout-ms; past
// --max-connections new connections are closed at once while the existing
// ones keep working; a RAW call run inline on the I/O thread gives up when its
// client stops talking, before the other members would declare the daemon
// failed.
#include "it_support.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::it;

namespace {

hlib::Daemon connect_daemon(const Daemon &d, const VmKey &key) {
    auto conn = hlib::Connection::open_tcp(d.tcp(), key, hlib::deadline_in(5s));
    REQUIRE_MESSAGE(conn.ok(), (conn ? "" : conn.error().describe()));
    return hlib::Daemon(std::move(conn.value()));
}

}  // namespace

TEST_CASE("a connection that does not authenticate is closed after --auth-timeout-ms") {
    test::DaemonOptions o;
    o.vm = "limits";
    o.extra_args = {"--auth-timeout-ms", "300"};
    auto d = Daemon::start(o);
    auto key = read_key(d->key_file());
    auto silent = RawClient::tcp(d->tcp());
    auto t0 = Clock::now();
    REQUIRE(silent.wait_closed(5s));
    auto waited = Clock::now() - t0;
    CHECK(waited >= 250ms);
    CHECK(waited < 3s);
    CHECK(d->stderr_text().find("no authentication within 300 ms") != std::string::npos);
    // An authenticated connection is not subject to it.
    auto good = connect_daemon(*d, key);
    std::this_thread::sleep_for(500ms);
    CHECK(good.ping(hlib::deadline_in(2s)).ok());
}

TEST_CASE("past --max-connections new connections are closed at once; existing ones keep working") {
    test::DaemonOptions o;
    o.vm = "limits";
    o.extra_args = {"--max-connections", "3"};
    auto d = Daemon::start(o);
    auto key = read_key(d->key_file());
    std::vector<hlib::Daemon> held;
    for (int i = 0; i < 3; ++i) held.push_back(connect_daemon(*d, key));
    auto refused = RawClient::tcp(d->tcp());
    CHECK(refused.wait_closed(3s));
    for (auto &h : held) CHECK(h.ping(hlib::deadline_in(2s)).ok());
    CHECK(d->stderr_text().find("refusing connections: 3 open, the limit is 3") != std::string::npos);
    held.pop_back();  // one goes away: a new client is served again
    CHECK(test::wait_until(
        [&] {
            auto conn = hlib::Connection::open_tcp(d->tcp(), key, hlib::deadline_in(1s));
            return conn && hlib::Daemon(std::move(conn.value())).ping(hlib::deadline_in(1s)).ok();
        },
        5s));
}

TEST_CASE("an inline RAW call whose client stops talking times out and the daemon stays a live member") {
    test::DaemonOptions o;
    o.vm = "limits";
    o.extra_args = {"--heartbeat-ms", "50", "--heartbeat-timeout-ms", "600", "--load", "examples/math"};
    auto a = Daemon::start(o);
    auto key = read_key(a->key_file());
    test::DaemonOptions ob = o;
    ob.key_file = a->key_file();
    ob.extra_args.insert(ob.extra_args.end(), {"--join", a->tcp().to_string()});
    auto b = Daemon::start(ob);

    auto client = connect_daemon(*a, key);
    auto t0 = Clock::now();
    auto r = client.call_raw(
        kMath, "raw_echo", HARNESS_MODE_INLINE,
        [](int) -> Result<void> {
            std::this_thread::sleep_for(1500ms);  // says nothing
            return {};
        },
        hlib::deadline_in(5s));
    // raw_echo's read timed out after heartbeat-timeout / 2 and it reported failure.
    REQUIRE_FALSE(r.ok());
    CHECK(Clock::now() - t0 < 4s);
    // b never declared a failed: its I/O thread was blocked 300 ms at most.
    auto vm = connect_daemon(*b, key);
    auto members = vm.members(hlib::deadline_in(2s));
    REQUIRE(members.ok());
    for (const auto &m : *members) CHECK_MESSAGE(m.alive, "member " << m.id << " was declared failed");
    CHECK(b->stderr_text().find("declared failed") == std::string::npos);
}
