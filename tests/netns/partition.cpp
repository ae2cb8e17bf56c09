// A VM of three daemons, each in its own network namespace with every VM
// service; one daemon's link is cut. The majority declares it failed; if it
// hosted events or naming, they fail over to the majority side; a DRD write
// acknowledged before the cut is still readable (linearizably) there; when the
// link returns, the daemon rejoins and every member sees all three alive.
// The test talks to every daemon over its Unix socket (a file, reachable
// from any namespace). Needs root: otherwise it says SKIPPED and exits 77.
#define DOCTEST_CONFIG_IMPLEMENT
#include "netns.hpp"

#include "it_support.hpp"

#include <doctest/doctest.h>

#include <iostream>

using namespace harness;
using namespace harness::it;

namespace {

constexpr int kHosts = 3;
const ComponentName kDrd{"vm", "drd"};
const ComponentName kNaming{"vm", "naming"};

hlib::Daemon client_of(const Daemon &d)
{
    auto conn = hlib::Connection::open_unix(d.unix_socket(), read_key(d.key_file()), hlib::deadline_in(5s));
    if (!conn) throw std::runtime_error("cannot reach " + d.id() + ": " + conn.error().describe());
    return hlib::Daemon(std::move(conn.value()));
}

Result<Bytes> call(const Daemon &d, const ComponentName &c, std::string_view f, std::span<const std::uint8_t> args)
{
    auto client = client_of(d);
    return client.call(c, f, args, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, hlib::deadline_in(5s));
}

// The member id in vm/services/<name>, "" when absent or unreadable.
std::string active_instance(const Daemon &d, const std::string &service)
{
    Packer args;
    args.str("vm/services/" + service).boolean(true);
    auto reply = call(d, kDrd, "get", args.view());
    if (!reply) return "";
    Unpacker u(*reply);
    bool found = false;
    Bytes value;
    std::int64_t version = 0;
    if (!u.boolean(found) || !u.bytes(value) || !u.i64(version) || !found) return "";
    return std::string(value.begin(), value.end());
}

std::map<std::string, bool> states_seen_by(const Daemon &d)
{
    std::map<std::string, bool> out;
    auto client = client_of(d);
    auto members = client.members(hlib::deadline_in(3s));
    if (members)
        for (const auto &m : *members) out[m.id] = m.alive;
    return out;
}

} // namespace

TEST_CASE("a cut link: failed by the majority, services fail over, acknowledged writes survive, rejoin")
{
    netns::Network net(kHosts);
    test::TempDir keys("hnetns");
    auto key = test::write_vm_key(keys.path() / "vm.key");
    std::vector<std::unique_ptr<Daemon>> d;
    for (int i = 0; i < kHosts; ++i) {
        test::DaemonOptions o;
        o.vm = "netns";
        o.key_file = key;
        o.netns = net.ns(i);
        o.host = net.address(i);
        o.port = 7001;
        o.services = test::kAllServices;
        o.ready_timeout = 30s;
        o.extra_args = {"--heartbeat-ms", "100", "--heartbeat-timeout-ms", "800"};
        if (i > 0) o.extra_args.insert(o.extra_args.end(), {"--join", net.address(0) + ":7001"});
        d.push_back(Daemon::start(o));
    }
    auto all_alive = [&](const Daemon &who) {
        auto s = states_seen_by(who);
        if (s.size() != d.size()) return false;
        for (const auto &x : d)
            if (!s.count(x->id()) || !s[x->id()]) return false;
        return true;
    };
    for (auto &x : d) REQUIRE_MESSAGE(test::wait_until([&] { return all_alive(*x); }, 10s), x->stderr_tail());

    // The DRD promotes the joiners to voters: wait for three, or a cut voter
    // would leave no majority (that is the DRD's guarantee, not a failure).
    auto voters = [&](const Daemon &who) -> std::int64_t {
        auto reply = call(who, kDrd, "status", {});
        if (!reply) return 0;
        Unpacker u(*reply);
        std::string leader;
        std::int64_t n = 0;
        return u.str(leader) && u.i64(n) && !leader.empty() ? n : 0;
    };
    REQUIRE_MESSAGE(test::wait_until([&] { return voters(*d[0]) == 3; }, 30s), "the DRD never had three voters");

    // An acknowledged write before the cut, and the active instances.
    const std::string payload = "before the cut";
    Packer put;
    put.str("test/acked").bytes(Bytes(payload.begin(), payload.end())).str("voters");
    Result<Bytes> acked = make_error(HARNESS_ERR_INTERNAL, "not tried");
    REQUIRE_MESSAGE(test::wait_until([&] { return (acked = call(*d[0], kDrd, "put", put.view())).ok(); }, 20s),
                    (acked ? "" : acked.error().describe()));
    std::string events_at, naming_at;
    CHECK(test::wait_until(
        [&] {
            events_at = active_instance(*d[0], "events");
            naming_at = active_instance(*d[0], "naming");
            return !events_at.empty() && !naming_at.empty();
        },
        20s));

    // Cut the host of events (so failover is exercised), or the last one.
    int victim = kHosts - 1;
    for (int i = 0; i < kHosts; ++i)
        if (d[static_cast<std::size_t>(i)]->id() == events_at) victim = i;
    const std::string victim_id = d[static_cast<std::size_t>(victim)]->id();
    std::vector<Daemon *> majority;
    for (int i = 0; i < kHosts; ++i)
        if (i != victim) majority.push_back(d[static_cast<std::size_t>(i)].get());
    MESSAGE("cutting " << victim_id << " (events at " << events_at << ", naming at " << naming_at << ")");
    net.cut(victim);

    for (Daemon *m : majority) {
        CAPTURE(m->id());
        CHECK(test::wait_until(
            [&] {
                auto s = states_seen_by(*m);
                return s.count(victim_id) && !s[victim_id];
            },
            5s));
    }
    // Services move to the majority side and answer there.
    CHECK(test::wait_until(
        [&] {
            auto e = active_instance(*majority[0], "events");
            auto n = active_instance(*majority[0], "naming");
            return !e.empty() && e != victim_id && !n.empty() && n != victim_id;
        },
        20s));
    Packer alloc;
    alloc.str("job").i64(1);
    Result<Bytes> id = make_error(HARNESS_ERR_INTERNAL, "not tried");
    CHECK_MESSAGE(test::wait_until([&] { return (id = call(*majority[1], kNaming, "allocate", alloc.view())).ok(); }, 20s),
                  (id ? "" : id.error().describe()));
    // The write acknowledged before the cut is there, read linearizably.
    Packer get;
    get.str("test/acked").boolean(true);
    Result<Bytes> got = make_error(HARNESS_ERR_INTERNAL, "not tried");
    REQUIRE_MESSAGE(test::wait_until([&] { return (got = call(*majority[0], kDrd, "get", get.view())).ok(); }, 20s),
                    (got ? "" : got.error().describe()));
    {
        Unpacker u(*got);
        bool found = false;
        Bytes value;
        std::int64_t version = 0;
        REQUIRE((u.boolean(found) && u.bytes(value) && u.i64(version)));
        CHECK(found);
        CHECK(std::string(value.begin(), value.end()) == "before the cut");
    }

    // The link returns: the cut daemon rejoins, everyone sees all alive again.
    net.restore(victim);
    for (auto &x : d) {
        CAPTURE(x->id());
        CHECK(test::wait_until([&] { return all_alive(*x); }, 10s));
    }
    for (auto &x : d) CHECK_MESSAGE(x->running(), x->stderr_tail());
}

int main(int argc, char **argv)
{
    std::string why;
    if (!netns::available(&why)) {
        std::cout << "SKIPPED: needs root and ip netns (" << why << ")" << std::endl;
        return 77;
    }
    doctest::Context context(argc, argv);
    return context.run();
}
