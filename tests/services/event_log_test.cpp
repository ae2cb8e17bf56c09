// EventLog (plugins/events/event_log.*) on the in-memory store: sequence
// numbers, order, resume, long polls, retention, publisher tokens, a DRD
// that fails, and two instances that both believe they are active.
#include "event_log.hpp"
#include "service_test_support.hpp"
#include "vm_service_kit/memory_record_store.hpp"
#include "vm_service_kit/names.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <set>
#include <thread>

using namespace harness;
using namespace harness::vmsvc;
using namespace std::chrono_literals;

namespace {

std::vector<std::int64_t> seqs_of(const std::vector<Event> &events) {
    std::vector<std::int64_t> out;
    for (const auto &e : events) out.push_back(e.seq);
    return out;
}

}  // namespace

TEST_CASE("publish numbers events 1, 2, 3 per topic; fetch returns them in order and resumes after any seq") {
    MemoryRecordStore store;
    EventLog log(store);
    for (int i = 1; i <= 5; ++i) {
        auto seq = log.publish("job/1", bytes_of("e" + std::to_string(i)), "", 1);
        REQUIRE(seq.ok());
        CHECK(*seq == i);
    }
    auto other = log.publish("job/2", bytes_of("x"), "", 1);
    REQUIRE(other.ok());
    CHECK(*other == 1);  // topics are numbered independently

    auto all = log.fetch("job/1", 0, 0, 100, 1);
    REQUIRE(all.ok());
    CHECK(seqs_of(*all) == std::vector<std::int64_t>{1, 2, 3, 4, 5});
    CHECK(string_of((*all)[2].payload) == "e3");

    // A subscriber that saw up to 3 reconnects and resumes after 3.
    auto rest = log.fetch("job/1", 3, 0, 100, 1);
    REQUIRE(rest.ok());
    CHECK(seqs_of(*rest) == std::vector<std::int64_t>{4, 5});
    // max bounds the reply.
    auto two = log.fetch("job/1", 0, 0, 2, 1);
    REQUIRE(two.ok());
    CHECK(seqs_of(*two) == std::vector<std::int64_t>{1, 2});
    // Every event is a record of its own in the store.
    auto stored = store.get(EventLog::key_of("job/1", 4), true);
    REQUIRE(stored.ok());
    CHECK(stored->has_value());
}

TEST_CASE("a waiting fetch wakes as soon as an event is published, and an idle one returns empty at wait_ms") {
    MemoryRecordStore store;
    EventLog log(store);
    auto started = std::chrono::steady_clock::now();
    auto idle = log.fetch("t", 0, 100, 10, 1);
    REQUIRE(idle.ok());
    CHECK(idle->empty());
    CHECK(std::chrono::steady_clock::now() - started >= 100ms);

    std::atomic<bool> fetching{false};
    std::thread publisher([&] {
        REQUIRE(test::wait_until([&] { return fetching.load(); }, 5s));
        REQUIRE(log.publish("t", bytes_of("hello"), "", 1).ok());
    });
    started = std::chrono::steady_clock::now();
    fetching = true;
    auto woken = log.fetch("t", 0, 20000, 10, 1);
    auto took = std::chrono::steady_clock::now() - started;
    publisher.join();
    REQUIRE(woken.ok());
    REQUIRE(woken->size() == 1);
    CHECK(string_of(woken->front().payload) == "hello");
    CHECK(took < 10s);  // woken by the publish, not by the 20 s deadline
}

TEST_CASE("retention keeps the newest events, deletes older ones from the store, and a stale fetcher sees the jump") {
    MemoryRecordStore store;
    EventLogLimits limits;
    limits.retention = 8;
    EventLog log(store, limits);
    for (int i = 1; i <= 40; ++i) REQUIRE(log.publish("t", bytes_of(std::to_string(i)), "", 1).ok());
    // Trimming runs in the background: wait for the store to shrink.
    CHECK(test::wait_until([&] { return store.size() <= 10; }, 5s));
    auto from_start = log.fetch("t", 0, 0, 100, 1);
    REQUIRE(from_start.ok());
    REQUIRE(!from_start->empty());
    CHECK(from_start->back().seq == 40);
    CHECK(from_start->front().seq > 1);  // the jump tells the fetcher what it missed
    CHECK(from_start->size() <= 10);
    auto seqs = seqs_of(*from_start);
    for (std::size_t i = 1; i < seqs.size(); ++i) CHECK(seqs[i] == seqs[i - 1] + 1);
    // The numbering continues after a reload (a new term) from what is retained.
    EventLog next(store, limits);
    auto seq = next.publish("t", bytes_of("41"), "", 2);
    REQUIRE(seq.ok());
    CHECK(*seq == 41);
}

TEST_CASE("a new active instance (new term) continues the sequence from the store, without gaps or reuse") {
    MemoryRecordStore store;
    EventLog first(store);
    for (int i = 1; i <= 5; ++i) REQUIRE(first.publish("job/9", bytes_of(std::to_string(i)), "", 1).ok());
    EventLog second(store);  // the instance on another daemon that took over
    auto seq = second.publish("job/9", bytes_of("6"), "", 2);
    REQUIRE(seq.ok());
    CHECK(*seq == 6);
    auto all = second.fetch("job/9", 0, 0, 100, 2);
    REQUIRE(all.ok());
    CHECK(seqs_of(*all) == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6});
    CHECK(string_of(all->back().payload) == "6");

    // The first instance, should it still believe it is active, cannot take
    // slot 6 again: its CAS fails and it learns the slot from the store.
    auto stale = first.publish("job/9", bytes_of("7"), "", 1);
    REQUIRE(stale.ok());
    CHECK(*stale == 7);
    auto seen_by_first = first.fetch("job/9", 5, 0, 100, 1);
    REQUIRE(seen_by_first.ok());
    CHECK(seqs_of(*seen_by_first) == std::vector<std::int64_t>{6, 7});
    CHECK(string_of(seen_by_first->front().payload) == "6");
}

TEST_CASE("a publish retried with the same token is stored once, also by the instance that took over") {
    MemoryRecordStore store;
    EventLog a(store);
    auto s1 = a.publish("t", bytes_of("x"), "tok-1", 1);
    auto s2 = a.publish("t", bytes_of("x"), "tok-1", 1);
    REQUIRE(s1.ok());
    REQUIRE(s2.ok());
    CHECK(*s1 == *s2);
    EventLog b(store);
    auto s3 = b.publish("t", bytes_of("x"), "tok-1", 2);
    REQUIRE(s3.ok());
    CHECK(*s3 == *s1);
    auto all = b.fetch("t", 0, 0, 100, 2);
    REQUIRE(all.ok());
    CHECK(all->size() == 1);
}

TEST_CASE("a write that committed but reported an error is not duplicated by the retry") {
    MemoryRecordStore store;
    EventLog log(store);
    REQUIRE(log.publish("t", bytes_of("a"), "t-a", 1).ok());
    store.commit_then_fail_next_cas();
    auto failed = log.publish("t", bytes_of("b"), "t-b", 1);
    CHECK_FALSE(failed.ok());  // not acknowledged...
    auto retried = log.publish("t", bytes_of("b"), "t-b", 1);
    REQUIRE(retried.ok());
    CHECK(*retried == 2);  // ...but the retry finds it committed at 2
    auto next = log.publish("t", bytes_of("c"), "t-c", 1);
    REQUIRE(next.ok());
    CHECK(*next == 3);
    auto all = log.fetch("t", 0, 0, 100, 1);
    REQUIRE(all.ok());
    CHECK(seqs_of(*all) == std::vector<std::int64_t>{1, 2, 3});
}

TEST_CASE("a store that is unavailable fails the publish; later publishes leave no gap") {
    MemoryRecordStore store;
    EventLog log(store);
    REQUIRE(log.publish("t", bytes_of("a"), "", 1).ok());
    store.fail_next(1);
    auto failed = log.publish("t", bytes_of("b"), "", 1);
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().status == HARNESS_ERR_UNREACHABLE);
    auto ok = log.publish("t", bytes_of("c"), "", 1);
    REQUIRE(ok.ok());
    CHECK(*ok == 2);
}

TEST_CASE("two instances that both believe they are active never give one seq to two events") {
    MemoryRecordStore store;
    EventLog a(store), b(store);
    std::mutex mutex;
    std::vector<std::int64_t> acked;
    std::vector<std::string> failures;
    auto publisher = [&](EventLog &log, int who) {
        for (int i = 0; i < 50; ++i) {
            auto s = log.publish("shared", bytes_of(std::to_string(who) + ":" + std::to_string(i)), "", 1);
            std::lock_guard lock(mutex);
            if (!s) {  // no REQUIRE off the test's thread: it would terminate
                failures.push_back(s.error().describe());
                continue;
            }
            acked.push_back(*s);
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) threads.emplace_back(publisher, t % 2 ? std::ref(a) : std::ref(b), t);
    for (auto &t : threads) t.join();
    REQUIRE_MESSAGE(failures.empty(), failures.front());
    std::set<std::int64_t> unique(acked.begin(), acked.end());
    CHECK(unique.size() == acked.size());
    CHECK(*unique.begin() == 1);
    CHECK(*unique.rbegin() == 200);  // no gaps either
    // Both instances' views agree with the store.
    EventLog reader(store);
    auto all = reader.fetch("shared", 0, 0, 1000, 7);
    REQUIRE(all.ok());
    REQUIRE(all->size() == 200);
    std::set<std::string> payloads;
    for (const auto &e : *all) payloads.insert(string_of(e.payload));
    CHECK(payloads.size() == 200);
}

TEST_CASE("bad arguments give clear errors") {
    MemoryRecordStore store;
    EventLogLimits limits;
    limits.max_payload = 16;
    EventLog log(store, limits);
    auto big = log.publish("t", Bytes(17, 'x'), "", 1);
    REQUIRE_FALSE(big.ok());
    CHECK(big.error().status == HARNESS_ERR_TOO_LARGE);
    CHECK(log.fetch("t", -1, 0, 1, 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(log.fetch("t", 0, -5, 1, 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(log.fetch("t", 0, 10'000'000, 1, 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(log.fetch("t", 0, 0, 0, 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);

    CHECK(check_name("topic", "job/17").ok());
    CHECK(check_name("topic", "vm/members").ok());
    for (std::string bad :
         std::vector<std::string>{"", "a#1", "a//b", "/a", "a/", "../x", "a/./b", "sp ace", std::string(201, 'a')}) {
        auto r = check_name("topic", bad);
        CHECK_MESSAGE(!r.ok(), bad);
        if (!r.ok()) CHECK(r.error().status == HARNESS_ERR_INVALID_ARGUMENT);
    }
}
