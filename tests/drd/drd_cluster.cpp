// vm/drd on three (then four) real daemons: writes on any daemon readable
// linearizably on all, CAS, deletes, scans, local records, watches in commit
// order, standbys and their promotion after kill -9 of a voter, and
// malformed arguments answered with errors by a daemon that keeps serving.
#include "drd_vm.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::drd::test;
using namespace std::chrono_literals;

namespace {

template <class T>
T ok(Result<T> r) {
    REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
    return std::move(r.value());
}

}  // namespace

TEST_CASE("three daemons: every write, from any daemon, is read linearizably on all") {
    DrdVm vm;
    for (int i = 0; i < 3; ++i) vm.start_daemon();
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 20s), vm.daemon(0).stderr_tail());

    for (std::size_t i = 0; i < 3; ++i) {
        auto c = vm.client(i);
        CHECK(ok(c.put("t/k" + std::to_string(i), "v" + std::to_string(i))) == 1);
    }
    for (std::size_t j = 0; j < 3; ++j) {
        auto c = vm.client(j);
        for (std::size_t i = 0; i < 3; ++i) {
            auto f = ok(c.get("t/k" + std::to_string(i), true));
            CHECK(f.found);
            CHECK(f.value == "v" + std::to_string(i));
            CHECK(f.version == 1);
        }
        // A write acknowledged anywhere is visible to a linearizable read
        // here at once, with no waiting.
        auto w = vm.client((j + 1) % 3);
        auto v = ok(w.put("t/latest", "from " + std::to_string(j)));
        auto f = ok(c.get("t/latest", true));
        CHECK(f.value == "from " + std::to_string(j));
        CHECK(f.version == v);
    }

    SUBCASE("compare-and-set") {
        auto a = vm.client(0), b = vm.client(1), c = vm.client(2);
        CHECK(ok(a.cas("t/cas", 0, "first")) == std::make_pair(true, std::int64_t{1}));
        CHECK(ok(b.cas("t/cas", 0, "second")) == std::make_pair(false, std::int64_t{1}));
        CHECK(ok(c.cas("t/cas", 5, "third")) == std::make_pair(false, std::int64_t{1}));
        CHECK(ok(c.cas("t/cas", 1, "third")) == std::make_pair(true, std::int64_t{2}));
        auto f = ok(a.get("t/cas", true));
        CHECK(f.value == "third");
        CHECK(f.version == 2);
    }
    SUBCASE("delete and scan") {
        auto a = vm.client(0), b = vm.client(2);
        CHECK(ok(a.del("t/k0")));
        CHECK_FALSE(ok(b.del("t/k0")));
        CHECK_FALSE(ok(b.get("t/k0", true)).found);
        auto items = ok(b.scan("t/k", true));
        REQUIRE(items.size() == 2);
        CHECK(items[0].key == "t/k1");
        CHECK(items[1].key == "t/k2");
        CHECK(items[1].value == "v2");
        // Followers apply the same entries: their own (non-linearizable)
        // view converges to the same records.
        CHECK(harness::test::wait_until([&] { return ok(vm.client(1).scan("t/k", false)).size() == 2; }, 5s));
    }
    SUBCASE("local records stay on their daemon") {
        auto a = vm.client(0), b = vm.client(1);
        CHECK(ok(a.put("l/mine", "here", "local")) == 1);
        CHECK(ok(a.put("l/mine", "again", "local")) == 2);
        CHECK(ok(a.get("l/mine", false)).value == "again");
        CHECK(ok(a.get("l/mine", true)).found);
        CHECK_FALSE(ok(b.get("l/mine", true)).found);
        CHECK(ok(a.cas("l/mine", 2, "third", "local")) == std::make_pair(true, std::int64_t{3}));
        CHECK(ok(a.scan("l/", false)).size() == 1);
        CHECK(ok(b.scan("l/", false)).empty());
    }
    SUBCASE("watch delivers the changes under a prefix in commit order, the same on every daemon") {
        auto empty = ok(vm.client(2).watch("w/", 0, 0));
        CHECK(empty.changes.empty());
        CHECK(ok(vm.client(0).put("w/a", "1")) == 1);
        CHECK(ok(vm.client(1).put("w/b", "2")) == 1);
        CHECK(ok(vm.client(2).put("other/x", "not watched")) == 1);
        CHECK(ok(vm.client(2).put("w/a", "3")) == 2);
        CHECK(ok(vm.client(0).del("w/b")));

        std::vector<std::vector<Item>> seen(3);
        for (std::size_t i = 0; i < 3; ++i) {
            auto c = vm.client(i);
            std::int64_t after = 0;
            auto until = std::chrono::steady_clock::now() + 10s;
            while (seen[i].size() < 4 && std::chrono::steady_clock::now() < until) {
                auto w = ok(c.watch("w/", after, 500));
                for (auto &item : w.changes) seen[i].push_back(item);
                after = w.next_index;
            }
            REQUIRE(seen[i].size() == 4);
            CHECK(seen[i][0].key == "w/a");
            CHECK(seen[i][0].value == "1");
            CHECK(seen[i][1].key == "w/b");
            CHECK(seen[i][2].key == "w/a");
            CHECK(seen[i][2].value == "3");
            CHECK(seen[i][2].version == 2);
            CHECK(seen[i][3].key == "w/b");
            CHECK(seen[i][3].deleted);
            for (std::size_t k = 1; k < 4; ++k) CHECK(seen[i][k].index > seen[i][k - 1].index);
        }
        for (std::size_t k = 0; k < 4; ++k) {
            CHECK(seen[0][k].index == seen[1][k].index);
            CHECK(seen[0][k].index == seen[2][k].index);
        }
        // A long poll returns when a change arrives, not at its deadline.
        auto c = vm.client(1);
        auto start = std::chrono::steady_clock::now();
        std::thread writer([&] {
            std::this_thread::sleep_for(100ms);  // the watch must already be waiting
            auto w = vm.client(0);
            (void)w.put("w/late", "x");
        });
        auto w = ok(c.watch("w/", seen[1].back().index, 900));
        writer.join();
        CHECK(std::chrono::steady_clock::now() - start < 900ms);
        REQUIRE(w.changes.size() == 1);
        CHECK(w.changes[0].key == "w/late");
    }
}

TEST_CASE("a fourth daemon is a standby, promoted when a voter is killed") {
    DrdVm vm;
    for (int i = 0; i < 4; ++i) vm.start_daemon();
    REQUIRE_MESSAGE(vm.wait_formed(3, 1, 20s), vm.daemon(0).stderr_tail());
    auto c = vm.client(3);
    CHECK(ok(c.put("s/before", "x")) == 1);

    // Kill a voter that does not lead; the standby takes its place.
    auto leader = vm.leader(0);
    REQUIRE(leader);
    auto status = ok(vm.client(*leader).status());
    std::optional<std::size_t> victim;
    for (std::size_t i = 0; i < 4; ++i)
        if (i != *leader &&
            std::find(status.voters.begin(), status.voters.end(), vm.daemon(i).id()) != status.voters.end())
            victim = i;
    REQUIRE(victim);
    vm.kill(*victim);
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 15s), vm.daemon(*leader).stderr_tail());
    auto after = ok(vm.client(*leader).status());
    CHECK(std::find(after.voters.begin(), after.voters.end(), vm.daemon(*victim).id()) == after.voters.end());
    CHECK(ok(c.get("s/before", true)).found);
}

TEST_CASE("malformed arguments get clear errors and the daemon keeps serving") {
    DrdVm vm;
    vm.start_daemon();
    REQUIRE(vm.wait_formed(1, 0, 20s));
    auto c = vm.client(0);
    auto expect_invalid = [&](const std::string &function, const Packer &args, const std::string &text) {
        auto r = c.call(function, args.view());
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().status == HARNESS_ERR_INVALID_ARGUMENT);
        CHECK_MESSAGE(r.error().message.find(text) != std::string::npos, r.error().message);
    };
    Packer none;
    Packer wrong_types;
    wrong_types.i64(1).i64(2);
    Packer extra;
    extra.str("k").boolean(true).i64(3);
    Packer bad_replication;
    bad_replication.str("k").bytes({}).str("everywhere");
    Packer negative_cas;
    negative_cas.str("k").i64(-1).bytes({}).str("");
    Packer negative_wait;
    negative_wait.str("w/").i64(0).i64(-5);
    Packer empty_key;
    empty_key.str("").bytes({}).str("");
    Packer bad_forward;
    bad_forward.str("explode").bytes({});

    expect_invalid("put", none, "malformed arguments");
    expect_invalid("put", wrong_types, "expected (str key, bytes value, str replication[, str client, i64 request])");
    Packer trailing_garbage;
    trailing_garbage.str("k").bytes({}).str("voters").i64(9);
    expect_invalid("put", trailing_garbage, "a requester as (str client, i64 request)");
    expect_invalid("get", extra, "malformed arguments");
    expect_invalid("put", bad_replication, "unknown replication");
    expect_invalid("cas", negative_cas, "expected_version");
    expect_invalid("watch", negative_wait, "negative");
    expect_invalid("put", empty_key, "empty key");
    expect_invalid("scan", none, "malformed arguments");
    expect_invalid("del", wrong_types, "malformed arguments");
    expect_invalid("status", wrong_types, "malformed arguments");
    expect_invalid("forward", bad_forward, "unknown op");
    Packer garbage_entry;
    garbage_entry.str("apply").bytes(Bytes(16, 0xee));
    expect_invalid("forward", garbage_entry, "drd entry");
    // A raw byte soup that is not a pack buffer at all.
    Bytes soup(37, 0x99);
    auto r = c.call("get", soup);
    CHECK_FALSE(r.ok());

    CHECK(ok(c.put("still/alive", "yes")) == 1);
    CHECK(ok(c.get("still/alive", true)).value == "yes");
}
