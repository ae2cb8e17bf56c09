// IdAllocator (plugins/naming/id_allocator.*) on the in-memory store: ids
// are unique across blocks, failovers (new terms), restarts (new
// allocators), a store that fails mid-write, and two concurrent allocators.
#include "id_allocator.hpp"
#include "vm_service_kit/memory_record_store.hpp"

#include <doctest/doctest.h>

#include <mutex>
#include <set>
#include <thread>

using namespace harness;
using namespace harness::vmsvc;

namespace {

// Adds ids first … first+count−1 to seen; false if any was there already.
bool add_range(std::set<std::int64_t> &seen, std::int64_t first, std::int64_t count) {
    for (std::int64_t i = 0; i < count; ++i)
        if (!seen.insert(first + i).second) return false;
    return true;
}

}  // namespace

TEST_CASE("ids start at 1, are consecutive within a term, and one DRD write serves a whole block") {
    MemoryRecordStore store;
    IdAllocator ids(store, NamingLimits{.block = 16});
    for (std::int64_t i = 1; i <= 10; ++i) {
        auto id = ids.allocate("job", 1, 1);
        REQUIRE(id.ok());
        CHECK(*id == i);
    }
    CHECK(store.cas_calls() == 1);
    auto range = ids.allocate("job", 100, 1);  // larger than a block: a block of its own
    REQUIRE(range.ok());
    CHECK(*range >= 11);
    auto after = ids.allocate("job", 1, 1);
    REQUIRE(after.ok());
    CHECK(*after >= *range + 100);
    auto other = ids.allocate("context", 1, 1);
    REQUIRE(other.ok());
    CHECK(*other == 1);  // spaces are independent
}

TEST_CASE("a failover (new term) and a restart (new allocator) skip ahead but never repeat an id") {
    MemoryRecordStore store;
    std::set<std::int64_t> seen;
    {
        IdAllocator first(store, NamingLimits{.block = 8});
        for (int i = 0; i < 5; ++i) {
            auto id = first.allocate("job", 1, 1);
            REQUIRE(id.ok());
            CHECK(add_range(seen, *id, 1));
        }
        for (int i = 0; i < 5; ++i) {  // same allocator, new term: the old block is dropped
            auto id = first.allocate("job", 1, 2);
            REQUIRE(id.ok());
            CHECK(add_range(seen, *id, 1));
            CHECK(*id > 5);
        }
    }
    IdAllocator restarted(store, NamingLimits{.block = 8});
    for (int i = 0; i < 20; ++i) {
        auto id = restarted.allocate("job", 3, 1);
        REQUIRE(id.ok());
        CHECK(add_range(seen, *id, 3));
    }
    // Increasing VM-wide: the restarted allocator's ids are above all earlier ones.
    CHECK(*seen.rbegin() > 16);
}

TEST_CASE("a reservation that committed but reported an error is skipped, never reissued") {
    MemoryRecordStore store;
    IdAllocator ids(store, NamingLimits{.block = 4});
    std::set<std::int64_t> seen;
    auto a = ids.allocate("s", 4, 1);
    REQUIRE(a.ok());
    CHECK(add_range(seen, *a, 4));
    store.commit_then_fail_next_cas();
    CHECK_FALSE(ids.allocate("s", 1, 1).ok());
    store.fail_next(1);
    CHECK(ids.allocate("s", 1, 1).error().status == HARNESS_ERR_UNREACHABLE);
    for (int i = 0; i < 10; ++i) {
        auto id = ids.allocate("s", 1, 1);
        REQUIRE(id.ok());
        CHECK(add_range(seen, *id, 1));
        CHECK(*id > 8);  // the block 5..8 reserved by the failed write is skipped
    }
}

TEST_CASE("two allocators that both believe they are active hand out disjoint ids") {
    MemoryRecordStore store;
    IdAllocator a(store, NamingLimits{.block = 5}), b(store, NamingLimits{.block = 7});
    std::mutex mutex;
    std::set<std::int64_t> seen;
    bool unique = true;
    auto run = [&](IdAllocator &ids) {
        for (int i = 0; i < 200; ++i) {
            auto id = ids.allocate("job", 1 + i % 3, 1);
            std::lock_guard lock(mutex);
            if (!id) {  // no REQUIRE off the test's thread: it would terminate
                unique = false;
                continue;
            }
            unique = add_range(seen, *id, 1 + i % 3) && unique;
        }
    };
    std::thread t1(run, std::ref(a)), t2(run, std::ref(b)), t3(run, std::ref(a));
    t1.join();
    t2.join();
    t3.join();
    CHECK(unique);
    CHECK(seen.size() == 3 * (67 * 1 + 67 * 2 + 66 * 3));
}

TEST_CASE("bad counts and a corrupt record give clear errors") {
    MemoryRecordStore store;
    IdAllocator ids(store);
    CHECK(ids.allocate("job", 0, 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(ids.allocate("job", -3, 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(ids.allocate("job", std::int64_t(1) << 40, 1).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    REQUIRE(store.cas(IdAllocator::key_of("broken"), 0, Bytes{1, 2, 3}).ok());
    auto r = ids.allocate("broken", 1, 1);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_INTERNAL);
    CHECK(r.error().message.find("malformed") != std::string::npos);
}
