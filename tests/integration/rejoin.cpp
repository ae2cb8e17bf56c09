// Rejoin: a member declared failed whose heartbeats come back rejoins. Real
// daemons; the "link loss" is SIGSTOP past the heartbeat timeout, then
// SIGCONT (the network-namespace version with a cut link is tests/netns).
// The others declare it failed, hear it again and take it back as a new
// incarnation; membership hooks in a plugin (examples/hostapi) hear failed
// then joined; every member's view converges to all alive; the resumed
// daemon does not declare the others failed for its own stall.
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <csignal>

using namespace harness;
using namespace harness::it;

namespace {

const ComponentName kHostApi{"examples", "hostapi"};

std::vector<std::pair<std::string, int>> member_events(const Daemon &d) {
    auto deadline = hlib::deadline_in(5s);
    auto conn = hlib::Connection::open_unix(d.unix_socket(), read_key(d.key_file()), deadline);
    REQUIRE_MESSAGE(conn.ok(), (conn ? "" : describe(conn.error())));
    hlib::Daemon client(std::move(conn.value()));
    auto reply =
        value_of(client.call(kHostApi, "member_events", {}, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline));
    Unpacker u(reply);
    std::int64_t n = 0;
    REQUIRE(u.i64(n));
    std::vector<std::pair<std::string, int>> out;
    for (std::int64_t i = 0; i < n; ++i) {
        std::string id;
        std::int32_t state = 0;
        REQUIRE((u.str(id) && u.i32(state)));
        out.emplace_back(id, state);
    }
    return out;
}

bool sees_all_alive(Vm &vm, Daemon &d) {
    auto c = connect(d);
    auto states = member_states(c);
    if (states.size() != vm.size()) return false;
    for (auto &other : vm.daemons)
        if (!states.count(other->id()) || !states[other->id()]) return false;
    return true;
}

}  // namespace

TEST_CASE("a member declared failed rejoins when its heartbeats come back, and hooks hear it") {
    Vm vm = start_vm(3);
    auto client = connect(vm[0]);
    for (const auto &r : client.load(kHostApi, {hlib::Placement::Kind::all, {}}))
        REQUIRE_MESSAGE(r.result.ok(), r.member_id << ": " << (r.result ? "" : describe(r.result.error())));
    const std::string victim = vm[2].id();

    vm[2].signal(SIGSTOP);
    for (Daemon *d : {&vm[0], &vm[1]}) {
        auto c = connect(*d);
        CHECK(test::wait_until(
            [&] {
                auto states = member_states(c);
                return states.count(victim) && !states[victim];
            },
            kHeartbeatTimeout + 3s));
    }
    // Stay frozen well past the timeout, as a cut link would.
    auto frozen_until = Clock::now() + 2 * kHeartbeatTimeout;
    test::wait_until([&] { return Clock::now() >= frozen_until; }, 3 * kHeartbeatTimeout);
    vm[2].signal(SIGCONT);

    for (auto &d : vm.daemons) {
        CAPTURE(d->id());
        CHECK(test::wait_until([&] { return sees_all_alive(vm, *d); }, kHeartbeatTimeout + 3s));
    }

    // The hooks of the survivors heard failed, then joined, for the victim.
    for (Daemon *d : {&vm[0], &vm[1]}) {
        CAPTURE(d->id());
        std::vector<int> heard;
        for (const auto &[id, state] : member_events(*d))
            if (id == victim) heard.push_back(state);
        CHECK(heard == std::vector<int>{HARNESS_MEMBER_FAILED, HARNESS_MEMBER_ALIVE});
        CHECK(d->stderr_text().find("member " + victim + " rejoined after being declared failed (incarnation 2)") !=
              std::string::npos);
    }
    // The resumed daemon knew it had stalled and did not fail the others.
    for (const auto &[id, state] : member_events(vm[2])) CHECK(state == HARNESS_MEMBER_ALIVE);
    // Logged at its first full tick after the stall; a SIGSTOP that lands
    // inside a tick delays that tick by one period.
    CHECK(test::wait_until([&] { return vm[2].stderr_text().find("was not scheduled for") != std::string::npos; },
                           kHeartbeatTimeout));

    // It serves calls from the others again.
    auto refs = value_of(client.get_functions(kHostApi, "paths"));
    int answered = 0;
    for (const auto &r : client.call_packed_parallel(refs, {})) answered += r.result.ok();
    CHECK(answered == 3);

    // Stable: nobody flaps afterwards.
    auto settle_until = Clock::now() + 2 * kHeartbeatTimeout;
    test::wait_until([&] { return Clock::now() >= settle_until; }, 3 * kHeartbeatTimeout);
    for (auto &d : vm.daemons) CHECK(sees_all_alive(vm, *d));
    std::size_t victim_events = 0;
    for (const auto &[id, state] : member_events(vm[0])) victim_events += id == victim;
    CHECK(victim_events == 2);
}
