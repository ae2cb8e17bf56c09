#define DOCTEST_CONFIG_IMPLEMENT
#include "host_vm.hpp"

#include <algorithm>

#include <doctest/doctest.h>

#include <iostream>
#include <stdexcept>

namespace harness::netns {

using namespace std::chrono_literals;

hlib::Daemon client_of(const it::Daemon &d) {
    auto conn = hlib::Connection::open_unix(d.unix_socket(), it::read_key(d.key_file()), hlib::deadline_in(5s));
    if (!conn) throw std::runtime_error("cannot reach " + d.id() + ": " + conn.error().describe());
    return hlib::Daemon(std::move(conn.value()));
}

std::map<std::string, bool> states_seen_by(const it::Daemon &d) {
    std::map<std::string, bool> out;
    auto client = client_of(d);
    auto members = client.members(hlib::deadline_in(3s));
    if (members)
        for (const auto &m : *members) out[m.id] = m.alive;
    return out;
}

bool sees_all_alive(const it::Daemon &who, const Daemons &d) {
    auto s = states_seen_by(who);
    if (s.size() != d.size()) return false;
    for (const auto &x : d)
        if (!s.count(x->id()) || !s[x->id()]) return false;
    return true;
}

std::int64_t drd_voters(const it::Daemon &d) {
    auto client = client_of(d);
    auto reply = client.call(ComponentName{"vm", "drd"}, "status", {}, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT,
                             hlib::deadline_in(5s));
    if (!reply) return 0;
    Unpacker u(*reply);
    std::string leader;
    std::int64_t n = 0;
    return u.str(leader) && u.i64(n) && !leader.empty() ? n : 0;
}

test::DaemonOptions host_options(const Network &net, int i, const std::string &vm, const std::filesystem::path &key) {
    test::DaemonOptions o;
    o.vm = vm;
    o.key_file = key;
    o.netns = net.ns(i);
    o.host = net.address(i);
    o.port = 7001;
    o.services = test::kAllServices;
    o.ready_timeout = 30s;
    o.extra_args = {"--heartbeat-ms", "100", "--heartbeat-timeout-ms", "800"};
    if (i > 0) o.extra_args.insert(o.extra_args.end(), {"--join", net.address(0) + ":7001"});
    return o;
}

Daemons start_vm(const Network &net, const std::string &vm, const std::filesystem::path &key) {
    Daemons d;
    for (int i = 0; i < net.hosts(); ++i) d.push_back(it::Daemon::start(host_options(net, i, vm, key)));
    for (auto &x : d) REQUIRE_MESSAGE(test::wait_until([&] { return sees_all_alive(*x, d); }, 10s), x->stderr_tail());
    // The DRD promotes the joiners to voters, up to 3 (5 from 5 daemons on):
    // wait for all of them, or a cut voter could leave no majority (the
    // DRD's guarantee, not a failure).
    const int voters = net.hosts() >= 5 ? 5 : std::min(net.hosts(), 3);
    REQUIRE_MESSAGE(test::wait_until([&] { return drd_voters(*d[0]) == voters; }, 30s),
                    "the DRD never had " << voters << " voters");
    return d;
}

int run_tests(int argc, char **argv) {
    std::string why;
    if (!available(&why)) {
        std::cout << "SKIPPED: needs root and ip netns (" << why << ")" << std::endl;
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}

}  // namespace harness::netns
