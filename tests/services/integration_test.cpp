// vm/events and vm/naming on three real hcored daemons with the real DRD:
// one order seen from every daemon; kill -9 of the active host in the middle
// of a stream of publishes (nothing acknowledged lost or reordered, a
// survivor takes over, fetchers resume); naming ids unique across that
// failover and across a restart of every daemon on the same roots.
#include "vm_services_fixture.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

using namespace harness;
using namespace harness::services_test;
using namespace std::chrono_literals;

namespace {

Bytes text(const std::string &s) {
    return Bytes(s.begin(), s.end());
}
std::string text_of(const Bytes &b) {
    return std::string(b.begin(), b.end());
}

// Every daemon answers `where` with the same member id; returns it.
std::string settled_where(ServiceVm &vm, bool naming) {
    std::string agreed;
    bool ok = test::wait_until(
        [&] {
            std::set<std::string> ids;
            for (std::size_t i = 0; i < vm.size(); ++i) {
                if (!vm.alive(i)) continue;
                ServiceClient c(vm[i], vm.key_file());
                auto w = naming ? c.naming_where(2s) : c.events_where(2s);
                if (!w) return false;
                ids.insert(*w);
            }
            if (ids.size() != 1) return false;
            agreed = *ids.begin();
            return vm.index_of(agreed) < vm.size();
        },
        30s);
    REQUIRE_MESSAGE(ok, "the daemons did not agree on an active " << (naming ? "naming" : "events") << " instance");
    return agreed;
}

// Fetches everything of a topic through one daemon.
std::vector<Event> fetch_all(ServiceClient &c, const std::string &topic) {
    std::vector<Event> all;
    for (;;) {
        auto batch = c.fetch(topic, all.empty() ? 0 : all.back().seq, 0, 1000);
        REQUIRE_MESSAGE(batch.ok(), batch.error().describe());
        if (batch->empty()) return all;
        all.insert(all.end(), batch->begin(), batch->end());
    }
}

}  // namespace

TEST_CASE("publish and fetch through different daemons: one gap-free order, seen the same everywhere") {
    ServiceVm vm(3);
    std::string active = settled_where(vm, false);
    MESSAGE("active events instance: " << active);
    std::vector<std::unique_ptr<ServiceClient>> clients;
    for (std::size_t i = 0; i < vm.size(); ++i)
        clients.push_back(std::make_unique<ServiceClient>(vm[i], vm.key_file()));

    for (int i = 0; i < 30; ++i) {
        auto seq = clients[i % 3]->publish("job/1", text("e" + std::to_string(i)));
        REQUIRE_MESSAGE(seq.ok(), seq.error().describe());
        CHECK(*seq == i + 1);
    }
    auto reference = fetch_all(*clients[0], "job/1");
    REQUIRE(reference.size() == 30);
    for (std::size_t i = 0; i < reference.size(); ++i) {
        CHECK(reference[i].seq == static_cast<std::int64_t>(i + 1));
        CHECK(text_of(reference[i].payload) == "e" + std::to_string(i));
    }
    for (auto &c : clients) CHECK(fetch_all(*c, "job/1") == reference);

    // A long poll through a non-active daemon wakes on a publish through another.
    std::size_t waiter = (vm.index_of(active) + 1) % 3, publisher = (vm.index_of(active) + 2) % 3;
    std::atomic<bool> got{false};
    std::thread fetcher([&] {
        ServiceClient c(vm[waiter], vm.key_file());
        auto r = c.fetch("job/1", 30, 20000);
        got = r.ok() && r->size() == 1 && r->front().seq == 31;
    });
    auto seq = clients[publisher]->publish("job/1", text("late"));
    REQUIRE(seq.ok());
    fetcher.join();
    CHECK(got.load());

    // Malformed arguments get a clear error from a real daemon, which keeps serving.
    Packer wrong;
    wrong.i64(1).str("x");
    for (auto [component, function] : {std::pair{"events", "publish"},
                                       {"events", "fetch"},
                                       {"events", "publish_active"},
                                       {"naming", "allocate"},
                                       {"naming", "allocate_active"}}) {
        auto r = clients[1]->call(component, function, wrong, 5s);
        REQUIRE_FALSE(r.ok());
        CHECK_MESSAGE(r.error().status == HARNESS_ERR_INVALID_ARGUMENT,
                      component << "/" << function << ": " << r.error().describe());
        CHECK(r.error().message.find("expects") != std::string::npos);
    }
    Packer bad_topic;
    bad_topic.str("job/../x").bytes(Bytes{1});
    auto refused = clients[2]->call("events", "publish", bad_topic, 5s);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(clients[1]->publish("job/2", text("still serving")).ok());

    // Naming answers from every daemon, never the same id twice.
    std::set<std::int64_t> ids;
    for (int i = 0; i < 30; ++i) {
        auto id = clients[i % 3]->allocate("job", 1);
        REQUIRE_MESSAGE(id.ok(), id.error().describe());
        CHECK(ids.insert(*id).second);
    }
}

TEST_CASE("kill -9 of the active events host mid-stream: acknowledged events survive in order, a survivor takes over, "
          "fetchers resume") {
    ServiceVm vm(3);
    REQUIRE_MESSAGE(vm.wait_for_drd_voters(3, 30s), "the DRD never had 3 voters");
    const std::string active = settled_where(vm, false);
    const std::size_t dead = vm.index_of(active);
    const std::size_t pub = (dead + 1) % 3, sub = (dead + 2) % 3;

    std::mutex mutex;
    std::vector<Event> acked;     // what publish acknowledged, in order
    std::vector<Event> received;  // what the fetcher saw, in order
    std::atomic<bool> stop{false};
    std::atomic<int> acked_count{0};
    std::atomic<int> publish_errors{0};

    std::thread fetcher([&] {
        ServiceClient c(vm[sub], vm.key_file());
        std::int64_t last = 0;
        while (!stop) {
            auto batch = c.fetch("job/7", last, 500);
            if (!batch) continue;  // the active host died under the long poll: resume from last
            std::lock_guard lock(mutex);
            for (auto &e : *batch) {
                received.push_back(e);
                last = e.seq;
            }
        }
    });
    std::thread publisher([&] {
        ServiceClient c(vm[pub], vm.key_file());
        for (int i = 0; !stop; ++i) {
            Bytes payload = text("p" + std::to_string(i));
            auto seq = c.publish("job/7", payload, 20s);
            if (!seq) {
                ++publish_errors;  // not acknowledged: no promise either way
                continue;
            }
            std::lock_guard lock(mutex);
            acked.push_back(Event{*seq, payload});
            ++acked_count;
        }
    });

    REQUIRE(test::wait_until([&] { return acked_count >= 20; }, 30s));
    vm.kill_hard(dead);
    int at_kill = acked_count;
    // The stream goes on through the survivors.
    bool resumed = test::wait_until([&] { return acked_count >= at_kill + 20; }, 30s);
    stop = true;
    publisher.join();
    fetcher.join();
    REQUIRE_MESSAGE(resumed, "publishing did not resume after the kill (" << publish_errors.load() << " errors)");

    const std::string now_active = settled_where(vm, false);
    CHECK(now_active != active);
    MESSAGE("events moved from " << active << " to " << now_active << "; " << acked.size() << " acknowledged, "
                                 << publish_errors.load() << " unacknowledged attempts");

    ServiceClient reader(vm[sub], vm.key_file());
    auto stored = fetch_all(reader, "job/7");
    // Gap-free, from 1.
    for (std::size_t i = 0; i < stored.size(); ++i) REQUIRE(stored[i].seq == static_cast<std::int64_t>(i + 1));
    // Every acknowledged event is there, at its seq, in the order acknowledged.
    for (std::size_t i = 0; i < acked.size(); ++i) {
        REQUIRE(acked[i].seq >= 1);
        REQUIRE(static_cast<std::size_t>(acked[i].seq) <= stored.size());
        CHECK(stored[acked[i].seq - 1].payload == acked[i].payload);
        if (i > 0) CHECK(acked[i].seq > acked[i - 1].seq);
    }
    // The fetcher, which resumed from its last seq across the failover, saw a
    // prefix of the same sequence: no gap, no duplicate, no reordering.
    REQUIRE(received.size() <= stored.size());
    for (std::size_t i = 0; i < received.size(); ++i) CHECK(received[i] == stored[i]);

    // The new active instance published the failure on vm/members.
    bool told = test::wait_until(
        [&] {
            auto events = reader.fetch("vm/members", 0, 0, 1000);
            if (!events) return false;
            for (auto &e : *events) {
                Unpacker u(e.payload);
                std::string kind, id;
                if (u.str(kind) && u.str(id) && kind == "member_failed" && id == active) return true;
            }
            return false;
        },
        10s);
    CHECK(told);
}

TEST_CASE("naming ids are never issued twice: across kill -9 of the naming host and a restart of every daemon") {
    ServiceVm vm(3);
    std::set<std::int64_t> seen;
    auto take = [&](std::size_t daemon, int n) {
        ServiceClient c(vm[daemon], vm.key_file());
        for (int i = 0; i < n; ++i) {
            auto id = c.allocate("job", 1 + i % 3);
            REQUIRE_MESSAGE(id.ok(), id.error().describe());
            for (std::int64_t k = 0; k < 1 + i % 3; ++k)
                REQUIRE_MESSAGE(seen.insert(*id + k).second, "id " << *id + k << " issued twice");
        }
    };
    for (std::size_t i = 0; i < 3; ++i) take(i, 10);
    REQUIRE_MESSAGE(vm.wait_for_drd_voters(3, 30s), "the DRD never had 3 voters");
    const std::string active = settled_where(vm, true);
    const std::size_t dead = vm.index_of(active);
    vm.kill_hard(dead);
    for (std::size_t i = 0; i < 3; ++i)
        if (i != dead) take(i, 10);
    CHECK(settled_where(vm, true) != active);

    vm.restart_all();  // same roots and ports, new member ids
    for (std::size_t i = 0; i < 3; ++i) take(i, 10);
    CHECK(seen.size() == 8 * 19);  // 8 rounds of take(…, 10), each 4×1 + 3×2 + 3×3 ids
}
