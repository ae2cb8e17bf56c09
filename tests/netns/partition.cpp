// A VM of three daemons, each in its own network namespace with every VM
// service; one daemon's link is cut. The majority declares it failed; if it
// hosted events or naming, they fail over to the majority side; a DRD write
// acknowledged before the cut is still readable (linearizably) there; when the
// link returns, the daemon rejoins and every member sees all three alive.
// The test talks to every daemon over its Unix socket (a file, reachable
// from any namespace). Needs root: otherwise it says SKIPPED and exits 77.
#include "host_vm.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::it;

namespace {

constexpr int kHosts = 3;
const ComponentName kDrd{"vm", "drd"};
const ComponentName kNaming{"vm", "naming"};

Result<Bytes> call(const Daemon &d, const ComponentName &c, std::string_view f, std::span<const std::uint8_t> args) {
    auto client = netns::client_of(d);
    return client.call(c, f, args, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, hlib::deadline_in(5s));
}

// The member id in vm/services/<name>, "" when absent or unreadable.
std::string active_instance(const Daemon &d, const std::string &service) {
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

}  // namespace

TEST_CASE("a cut link: failed by the majority, services fail over, acknowledged writes survive, rejoin") {
    netns::Network net(kHosts);
    test::TempDir keys("hnetns");
    auto key = test::write_vm_key(keys.path() / "vm.key");
    auto d = netns::start_vm(net, "netns", key);

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
                auto s = netns::states_seen_by(*m);
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
    CHECK_MESSAGE(
        test::wait_until([&] { return (id = call(*majority[1], kNaming, "allocate", alloc.view())).ok(); }, 20s),
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
        CHECK(test::wait_until([&] { return netns::sees_all_alive(*x, d); }, 10s));
    }
    for (auto &x : d) CHECK_MESSAGE(x->running(), x->stderr_tail());
}

int main(int argc, char **argv) {
    return netns::run_tests(argc, argv);
}
