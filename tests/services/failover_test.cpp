// The active-instance rule, forwarding and failover of vm/events and
// vm/naming in-process: three service instances on one in-memory store, a
// scripted membership and a network whose hosts the test takes down. Same
// code as in the daemons; only the store, membership and transport differ.
#include "events_service.hpp"
#include "naming_service.hpp"
#include "service_test_support.hpp"
#include "vm_service_kit/memory_record_store.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <set>

using namespace harness;
using namespace harness::vmsvc;
using namespace std::chrono_literals;

namespace {

struct Node {
    Node(test::Cluster &c, RecordStore &store, const std::string &id_, EventsSettings es, NamingSettings ns)
        : id(id_), members(c, id_), forwarder(c), events(store, members, forwarder, {}, es),
          naming(store, members, forwarder, {}, ns) {}
    std::string id;
    test::ClusterMembers members;
    test::ClusterForwarder forwarder;
    EventsService events;
    NamingService naming;
};

// What a daemon does with a forwarded call: decode, run the *_active entry, encode.
Result<Bytes> serve(Node &n, std::string_view function, std::span<const std::uint8_t> args) {
    Unpacker u(args);
    Packer reply;
    if (function == "publish_active") {
        std::string topic, token;
        Bytes payload;
        if (!u.str(topic) || !u.bytes(payload) || !u.str(token))
            return make_error(HARNESS_ERR_INVALID_ARGUMENT, "args");
        auto s = n.events.publish_active(topic, payload, token);
        if (!s) return s.error();
        reply.i64(*s);
    } else if (function == "fetch_active") {
        std::string topic;
        std::int64_t after = 0, wait = 0, max = 0;
        if (!u.str(topic) || !u.i64(after) || !u.i64(wait) || !u.i64(max))
            return make_error(HARNESS_ERR_INVALID_ARGUMENT, "args");
        auto events = n.events.fetch_active(topic, after, wait, max);
        if (!events) return events.error();
        reply.i64(static_cast<std::int64_t>(events->size()));
        for (auto &e : *events) reply.i64(e.seq).bytes(e.payload);
    } else if (function == "allocate_active") {
        std::string space;
        std::int64_t count = 0;
        if (!u.str(space) || !u.i64(count)) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "args");
        auto first = n.naming.allocate_active(space, count);
        if (!first) return first.error();
        reply.i64(*first);
    } else {
        return make_error(HARNESS_ERR_NOT_FOUND, std::string(function));
    }
    return reply.take();
}

struct Vm {
    explicit Vm(int n) {
        EventsSettings es;
        es.request_deadline = 5000ms;
        es.role_recheck = 100ms;
        NamingSettings ns;
        ns.request_deadline = 5000ms;
        ns.role_recheck = 100ms;
        ns.limits.block = 8;
        for (int i = 0; i < n; ++i) cluster.add("m" + std::to_string(i));
        for (int i = 0; i < n; ++i) {
            nodes.push_back(std::make_unique<Node>(cluster, store, "m" + std::to_string(i), es, ns));
            Node *node = nodes.back().get();
            cluster.set_handler(
                node->id, [node](std::string_view f, std::span<const std::uint8_t> a) { return serve(*node, f, a); });
        }
        for (auto &node : nodes) {
            node->events.start();
            node->naming.start();
        }
    }
    ~Vm() {
        // Stop every instance before any is destroyed: a keeper thread of one
        // may be calling into another.
        for (auto &n : nodes) {
            n->events.stop();
            n->naming.stop();
        }
    }
    Node &by_id(const std::string &id) {
        for (auto &n : nodes)
            if (n->id == id) return *n;
        FAIL("no node " << id);
        return *nodes.front();
    }
    // The host dies: its calls fail at once; the core declares it failed
    // later, and every survivor's hook fires.
    void kill(const std::string &id) {
        cluster.take_down(id);
        by_id(id).events.stop();
        by_id(id).naming.stop();
    }
    void declare_failed(const std::string &id) {
        cluster.declare_failed(id);
        for (auto &n : nodes)
            if (n->id != id) {
                n->events.member_changed(id, false);
                n->naming.member_changed(id, false);
            }
    }
    std::string holder(const char *key) {
        auto r = store.get(key, true);
        if (!r.ok() || !r->has_value()) return "";
        return string_of((*r)->value);
    }

    MemoryRecordStore store;
    test::Cluster cluster;
    std::vector<std::unique_ptr<Node>> nodes;
};

}  // namespace

TEST_CASE("one active instance per VM, recorded in vm/services/*; every instance answers with one sequence") {
    Vm vm(3);
    REQUIRE(
        test::wait_until([&] { return !vm.holder(kEventsRoleKey).empty() && !vm.holder(kNamingRoleKey).empty(); }, 5s));
    const std::string active = vm.holder(kEventsRoleKey);
    for (auto &n : vm.nodes) {
        auto w = n->events.where();
        REQUIRE(w.ok());
        CHECK(*w == active);
        auto nw = n->naming.where();
        REQUIRE(nw.ok());
        CHECK(*nw == vm.holder(kNamingRoleKey));
    }
    // Publishes from every instance interleave into one gap-free sequence.
    std::vector<std::int64_t> seqs;
    for (int round = 0; round < 4; ++round)
        for (auto &n : vm.nodes) {
            auto s = n->events.publish("job/1", bytes_of(n->id + "/" + std::to_string(round)));
            REQUIRE(s.ok());
            seqs.push_back(*s);
        }
    for (std::size_t i = 0; i < seqs.size(); ++i) CHECK(seqs[i] == static_cast<std::int64_t>(i + 1));
    // Every fetcher, wherever it asks, sees the same events in the same order.
    std::vector<std::vector<Event>> views;
    for (auto &n : vm.nodes) {
        auto f = n->events.fetch("job/1", 0, 0, 100);
        REQUIRE(f.ok());
        views.push_back(*f);
    }
    for (auto &v : views) {
        REQUIRE(v.size() == 12);
        for (std::size_t i = 0; i < v.size(); ++i) {
            CHECK(v[i].seq == views[0][i].seq);
            CHECK(v[i].payload == views[0][i].payload);
        }
    }
}

TEST_CASE("kill of the active host: a survivor takes over, acknowledged events stay in order, fetchers resume, "
          "vm/members tells") {
    Vm vm(3);
    REQUIRE(test::wait_until([&] { return !vm.holder(kEventsRoleKey).empty(); }, 5s));
    const std::string dead = vm.holder(kEventsRoleKey);
    Node *survivor = nullptr;
    for (auto &n : vm.nodes)
        if (n->id != dead) survivor = n.get();
    REQUIRE(survivor);

    std::vector<std::int64_t> acked;
    for (int i = 0; i < 10; ++i) {
        auto s = survivor->events.publish("job/2", bytes_of("before-" + std::to_string(i)));
        REQUIRE(s.ok());
        acked.push_back(*s);
    }
    auto seen = survivor->events.fetch("job/2", 0, 0, 100);
    REQUIRE(seen.ok());
    std::int64_t resume_after = seen->back().seq;

    vm.kill(dead);
    // A publish in the window before the core declares the host failed waits
    // (it cannot reach the active) and completes once the failure is declared.
    std::thread detector([&] {
        std::this_thread::sleep_for(50ms);  // the failure detector's delay, not a wait for a result
        vm.declare_failed(dead);
    });
    auto during = survivor->events.publish("job/2", bytes_of("during"));
    detector.join();
    REQUIRE(during.ok());
    acked.push_back(*during);
    for (int i = 0; i < 10; ++i) {
        auto s = survivor->events.publish("job/2", bytes_of("after-" + std::to_string(i)));
        REQUIRE(s.ok());
        acked.push_back(*s);
    }
    REQUIRE(
        test::wait_until([&] { return !vm.holder(kEventsRoleKey).empty() && vm.holder(kEventsRoleKey) != dead; }, 5s));
    for (std::size_t i = 0; i < acked.size(); ++i) CHECK(acked[i] == static_cast<std::int64_t>(i + 1));

    // The fetcher resumes after the last seq it saw, at the new active instance.
    auto resumed = survivor->events.fetch("job/2", resume_after, 1000, 100);
    REQUIRE(resumed.ok());
    REQUIRE(resumed->size() == 11);
    CHECK(resumed->front().seq == resume_after + 1);
    CHECK(std::string(resumed->front().payload.begin(), resumed->front().payload.end()) == "during");

    // The new active instance published the failure on vm/members.
    bool told = test::wait_until(
        [&] {
            auto m = survivor->events.fetch(kMembersTopic, 0, 0, 100);
            if (!m.ok()) return false;
            for (auto &e : *m) {
                Unpacker u(e.payload);
                std::string kind, id;
                if (u.str(kind) && u.str(id) && kind == "member_failed" && id == dead) return true;
            }
            return false;
        },
        5s);
    CHECK(told);
}

TEST_CASE("naming ids stay unique across a failover and across a restart of every instance") {
    std::set<std::int64_t> seen;
    auto take = [&](NamingService &naming, int n) {
        for (int i = 0; i < n; ++i) {
            auto id = naming.allocate("job", 1 + i % 2);
            REQUIRE(id.ok());
            for (std::int64_t k = 0; k < 1 + i % 2; ++k) CHECK(seen.insert(*id + k).second);
        }
    };
    {
        Vm vm(3);
        REQUIRE(test::wait_until([&] { return !vm.holder(kNamingRoleKey).empty(); }, 5s));
        for (auto &n : vm.nodes) take(n->naming, 10);
        const std::string dead = vm.holder(kNamingRoleKey);
        vm.kill(dead);
        vm.declare_failed(dead);
        for (auto &n : vm.nodes)
            if (n->id != dead) take(n->naming, 10);
        CHECK(vm.holder(kNamingRoleKey) != dead);

        // A restart of every daemon: new member ids, the same DRD contents.
        // The role record names a member that no longer exists. The old
        // instances are stopped first, as their daemons would be.
        for (auto &n : vm.nodes) {
            n->events.stop();
            n->naming.stop();
        }
        test::Cluster fresh;
        fresh.add("r0");
        fresh.add("r1");
        NamingSettings ns;
        ns.limits.block = 8;
        test::ClusterMembers m0(fresh, "r0"), m1(fresh, "r1");
        test::ClusterForwarder f0(fresh), f1(fresh);
        NamingService n0(vm.store, m0, f0, {}, ns), n1(vm.store, m1, f1, {}, ns);
        fresh.set_handler("r0", [&](std::string_view, std::span<const std::uint8_t> a) -> Result<Bytes> {
            Unpacker u(a);
            std::string space;
            std::int64_t count = 0;
            if (!u.str(space) || !u.i64(count)) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "args");
            auto r = n0.allocate_active(space, count);
            if (!r) return r.error();
            Packer p;
            p.i64(*r);
            return p.take();
        });
        fresh.set_handler("r1", [&](std::string_view, std::span<const std::uint8_t> a) -> Result<Bytes> {
            Unpacker u(a);
            std::string space;
            std::int64_t count = 0;
            if (!u.str(space) || !u.i64(count)) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "args");
            auto r = n1.allocate_active(space, count);
            if (!r) return r.error();
            Packer p;
            p.i64(*r);
            return p.take();
        });
        take(n1, 10);
        take(n0, 10);
        auto holder = vm.holder(kNamingRoleKey);
        CHECK((holder == "r0" || holder == "r1"));
    }
    CHECK(seen.size() == 7 * 15);  // 7 rounds of take(…, 10), each 5 × 1 + 5 × 2 ids
}

TEST_CASE("bad arguments are refused by the public functions before anything is forwarded") {
    Vm vm(2);
    auto &n = *vm.nodes[1];
    CHECK(n.events.publish("bad#topic", bytes_of("x")).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(n.events.publish("", bytes_of("x")).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(n.events.publish("t", Bytes(1 << 20, 0)).error().status == HARNESS_ERR_TOO_LARGE);
    CHECK(n.events.fetch("t", -1, 0, 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(n.events.fetch("t", 0, 0, 0).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(n.naming.allocate("job", 0).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(n.naming.allocate("../etc", 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);
}

TEST_CASE("an instance that finds it lost the role releases its waiting fetchers at once, to retry at the new one") {
    Vm vm(2);
    REQUIRE(test::wait_until([&] { return !vm.holder(kEventsRoleKey).empty(); }, 5s));
    Node &active = vm.by_id(vm.holder(kEventsRoleKey));
    Node &other = vm.by_id(active.id == "m0" ? "m1" : "m0");
    REQUIRE(active.events.publish("t", bytes_of("one")).ok());

    std::atomic<bool> returned{false};
    Result<std::vector<Event>> waited = make_error(HARNESS_ERR_INTERNAL, "not run");
    std::thread fetcher([&] {
        waited = active.events.fetch_active("t", 1, 20000, 10);
        returned = true;
    });
    // The other instance takes the role (as after a false failure suspicion).
    auto record = vm.store.get(kEventsRoleKey, true);
    REQUIRE((record.ok() && record->has_value()));
    REQUIRE(vm.store.cas(kEventsRoleKey, (*record)->version, bytes_of(other.id))->ok);
    auto started = std::chrono::steady_clock::now();
    auto view = active.events.role().refresh();
    REQUIRE(view.ok());
    CHECK_FALSE(view->self);
    fetcher.join();
    CHECK(std::chrono::steady_clock::now() - started < 10s);
    REQUIRE_FALSE(waited.ok());
    CHECK(waited.error().status == HARNESS_ERR_BUSY);
    // Through the public function the fetcher ends up at the new active
    // instance, which reloads the topic from the store.
    auto via_old = active.events.fetch("t", 0, 0, 10);
    REQUIRE(via_old.ok());
    CHECK(via_old->size() == 1);
    auto publish = active.events.publish("t", bytes_of("two"));
    REQUIRE(publish.ok());
    CHECK(*publish == 2);
}
