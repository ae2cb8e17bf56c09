// Three daemons form a VM (the second and third with --join), and every
// member learns every other one, with the addresses from their ready lines.
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <set>
#include <thread>

using namespace harness;
using namespace harness::it;

namespace {

// What daemon d reports as the members of its VM, by id.
std::map<std::string, hlib::Member> members_seen_by(Daemon &d) {
    auto vm = connect(d);
    auto members = vm.members();
    REQUIRE_MESSAGE(members.ok(), (members ? "" : members.error().describe()));
    std::map<std::string, hlib::Member> out;
    for (const auto &m : *members) out[m.id] = m;
    return out;
}

}  // namespace

TEST_CASE("three daemons joined with --join form one VM that every member sees whole") {
    auto vm = start_vm(3);  // waits until each daemon lists 3 alive members

    std::set<std::string> ids;
    for (auto &d : vm.daemons) ids.insert(d->id());
    REQUIRE(ids.size() == 3);  // every daemon has its own member id

    for (auto &d : vm.daemons) {
        CAPTURE(d->id());
        CHECK(d->vm() == "itvm");
        auto seen = members_seen_by(*d);
        REQUIRE(seen.size() == 3);
        for (auto &other : vm.daemons) {
            CAPTURE(other->id());
            REQUIRE(seen.count(other->id()) == 1);
            const auto &m = seen.at(other->id());
            CHECK(m.alive);
            CHECK(m.tcp == other->tcp());
            CHECK(m.udp == other->udp());
        }
    }
}

TEST_CASE("members learned second hand: the third daemon joined through the first still hears the second") {
    // The third daemon only ever talked to the first; the second learns of it
    // by gossip and heartbeats it. After several timeouts everyone must still
    // be alive: heartbeats flow between all pairs, not only via the first.
    auto vm = start_vm(3);
    auto second = connect(vm[1]);
    auto third = connect(vm[2]);
    auto deadline = Clock::now() + 3 * kHeartbeatTimeout;
    while (Clock::now() < deadline) {
        for (auto *client : {&second, &third}) {
            auto states = member_states(*client);
            REQUIRE(states.size() == 3);
            for (const auto &[id, alive] : states) {
                CAPTURE(id);
                REQUIRE(alive);
            }
        }
        std::this_thread::sleep_for(20ms);  // a sampling interval, not a wait for anything
    }
}

TEST_CASE("ADD brings a running daemon into the VM and every member learns it") {
    auto vm = start_vm(2);
    test::DaemonOptions o;
    o.vm = "itvm";
    o.key_file = vm.key_file;
    o.extra_args = fast_heartbeat_args();
    auto newcomer = Daemon::start(o);

    auto client = connect(vm[0]);
    auto added = client.local().add(newcomer->tcp(), hlib::deadline_in(5s));
    REQUIRE_MESSAGE(added.ok(), (added ? "" : added.error().describe()));
    CHECK(*added == newcomer->id());

    for (Daemon *d : {&vm[0], &vm[1], newcomer.get()}) {
        CAPTURE(d->id());
        auto c = connect(*d);
        CHECK(wait_for_alive_members(c, 3, 5s));
    }
}

namespace {

// Runs hcored --join TARGET in a fresh root and returns how it ended; it must
// end (not hang) and is killed at the deadline otherwise.
RunResult join_attempt(const Endpoint &target, const std::string &vm_name, const std::filesystem::path &key) {
    test::TempDir root("hjoin");
    auto port = test::free_port();
    return run_program({test::hcored_path().string(), "--root", root.path().string(), "--key", key.string(), "--vm",
                        vm_name, "--listen", "127.0.0.1:" + std::to_string(port), "--join", target.to_string(),
                        "--foreground"},
                       15s);
}

}  // namespace

TEST_CASE("joining fails at once and clearly with another VM name, the wrong key, or nobody at the address") {
    auto vm = start_vm(1);
    Daemon &a = vm[0];

    SUBCASE("another VM name") {
        auto r = join_attempt(a.tcp(), "othervm", vm.key_file);
        INFO("stderr: " << r.err);
        REQUIRE_FALSE(r.timed_out);
        CHECK(r.exit_code() > 0);
        CHECK(r.err.find("cannot join") != std::string::npos);
        CHECK(r.err.find("itvm") != std::string::npos);
        CHECK(r.out.find("hcored ready") == std::string::npos);
    }
    SUBCASE("the wrong key") {
        test::TempDir keys("hkey");
        auto wrong = test::write_vm_key(keys.path() / "wrong.key");
        auto r = join_attempt(a.tcp(), "itvm", wrong);
        INFO("stderr: " << r.err);
        REQUIRE_FALSE(r.timed_out);
        CHECK(r.exit_code() > 0);
        CHECK(r.err.find("cannot join") != std::string::npos);
        CHECK(r.err.find("authentication") != std::string::npos);
    }
    SUBCASE("nobody listening there") {
        auto t0 = Clock::now();
        auto r = join_attempt(Endpoint{"127.0.0.1", test::free_port()}, "itvm", vm.key_file);
        INFO("stderr: " << r.err);
        REQUIRE_FALSE(r.timed_out);
        CHECK(Clock::now() - t0 < 5s);
        CHECK(r.exit_code() > 0);
        CHECK(r.err.find("cannot join") != std::string::npos);
    }
    // The VM did not gain a half-joined member.
    REQUIRE(a.running());
    auto client = connect(a);
    auto states = member_states(client);
    CHECK(states.size() == 1);
}
