// The consensus engine alone, in one process: three RaftNodes (c-raft on the
// authenticated libuv transport, SQLite stores) on loopback. Bootstrap of
// one node and adding the others as voters, replication to every store, a
// leader stopped mid-way and the others electing and continuing, and a node
// holding the wrong VM key that can never take part. No daemon needed, so
// this is also what the sanitizer build checks of raft_node/auth_transport.
#include "raft_node.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <thread>
#include <unistd.h>

using namespace harness;
using namespace harness::drd;
using namespace std::chrono_literals;

namespace {

bool eventually(const std::function<bool()> &condition, std::chrono::milliseconds timeout) {
    auto until = Clock::now() + timeout;
    for (;;) {
        if (condition()) return true;
        if (Clock::now() >= until) return false;
        std::this_thread::sleep_for(10ms);
    }
}

struct Dir {
    std::filesystem::path path;
    Dir() {
        char tmpl[] = "/tmp/drdnode-XXXXXX";
        REQUIRE(::mkdtemp(tmpl) != nullptr);
        path = tmpl;
    }
    ~Dir() {
        std::error_code ec;
        if (!std::getenv("HARNESS_TEST_KEEP")) std::filesystem::remove_all(path, ec);
    }
};

struct Node {
    Dir dir;
    std::unique_ptr<Store> store;
    std::unique_ptr<RaftNode> raft;
    std::uint64_t id = 0;

    // deferred: open and listen, start only on begin() (the service's formation).
    Node(std::uint64_t raft_id, const VmKey &key, bool bootstrap, bool deferred = false) : id(raft_id) {
        std::filesystem::create_directories(dir.path / "raft");
        auto s = Store::open(dir.path / "drd.sqlite");
        REQUIRE(s.ok());
        store = std::move(s.value());
        RaftNodeOptions o;
        o.dir = dir.path / "raft";
        o.id = raft_id;
        o.bootstrap = bootstrap;
        o.deferred = deferred;
        o.key = key;
        o.store = store.get();
        auto r = RaftNode::start(std::move(o));
        REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
        raft = std::move(r.value());
    }
    bool leads() {
        auto v = raft->view(Clock::now() + 1s);
        return v && v->is_leader;
    }
};

Deadline soon() {
    return Clock::now() + 5s;
}

Command put(const std::string &key, const std::string &value) {
    return Command{Op::put, key, Bytes(value.begin(), value.end()), 0};
}

}  // namespace

TEST_CASE("three raft nodes: bootstrap, add voters, replicate, survive losing the leader") {
    VmKey key{Bytes(32, 0x11)};
    auto a = std::make_unique<Node>(1, key, true);
    Node b(2, key, false), c(3, key, false);
    REQUIRE(eventually([&] { return a->leads(); }, 5s));
    REQUIRE(b.raft->submit(put("x", "1"), soon()).error().status == HARNESS_ERR_BUSY);  // not a leader

    REQUIRE(a->raft->add(2, b.raft->address(), soon()).ok());
    REQUIRE(a->raft->assign(2, Role::voter, soon()).ok());
    REQUIRE(a->raft->add(3, c.raft->address(), soon()).ok());
    REQUIRE(a->raft->assign(3, Role::voter, soon()).ok());
    auto view = a->raft->view(soon());
    REQUIRE(view.ok());
    CHECK(view->servers.size() == 3);

    for (int i = 0; i < 50; ++i) {
        auto r = a->raft->submit(put("k" + std::to_string(i), std::to_string(i)), soon());
        REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
        CHECK(r->version == 1);
    }
    auto cas = a->raft->submit(Command{Op::cas, "k1", Bytes{'z'}, 1}, soon());
    REQUIRE(cas.ok());
    CHECK(cas->ok);
    CHECK(cas->current_version == 2);
    REQUIRE(a->raft->barrier(soon()).ok());
    for (Node *n : {&b, &c})
        CHECK(eventually([&] { return n->store->scan("k").size() == 50 && n->store->get("k1")->version == 2; }, 5s));

    // The leader goes away; the two others elect one of themselves.
    a.reset();
    REQUIRE(eventually([&] { return b.leads() || c.leads(); }, 10s));
    Node &leader = b.leads() ? b : c;
    auto r = leader.raft->submit(put("after", "yes"), soon());
    REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
    Node &other = &leader == &b ? c : b;
    CHECK(eventually([&] { return other.store->get("after").has_value(); }, 5s));
    CHECK(other.store->scan("k").size() == 50);
}

TEST_CASE("a raft node without the VM key never joins") {
    auto a = std::make_unique<Node>(1, VmKey{Bytes(32, 0x11)}, true);
    Node intruder(2, VmKey{Bytes(32, 0x22)}, false);
    REQUIRE(eventually([&] { return a->leads(); }, 5s));
    REQUIRE(a->raft->submit(put("secret", "s"), soon()).ok());
    // Added as a spare, it would get entries if its connections were accepted.
    REQUIRE(a->raft->add(2, intruder.raft->address(), soon()).ok());
    // Promotion needs it to catch up, which it cannot: the change times out
    // or fails, and the intruder never sees a record.
    auto promoted = a->raft->assign(2, Role::voter, Clock::now() + 1500ms);
    CHECK_FALSE(promoted.ok());
    CHECK_FALSE(intruder.store->get("secret").has_value());
    auto v = intruder.raft->view(soon());
    REQUIRE(v.ok());
    CHECK(v->leader_id == 0);
    // The leader still commits alone.
    CHECK(a->raft->submit(put("still", "ok"), soon()).ok());
}

TEST_CASE("deferred raft nodes: nothing runs until begin, then bootstrap or join") {
    VmKey key{Bytes(32, 0x11)};
    SUBCASE("a node that never begins stops cleanly") {
        // The ctest timeout catches a loop that never runs dry.
        Node idle(9, key, false, true);
        CHECK_FALSE(idle.raft->started());
        auto v = idle.raft->view(soon());
        REQUIRE(v.ok());
        CHECK(v->servers.empty());
        CHECK(v->leader_id == 0);
        CHECK(idle.raft->submit(put("x", "1"), soon()).error().status == HARNESS_ERR_BUSY);
    }
    SUBCASE("one bootstraps, the other joins") {
        Node a(1, key, false, true), b(2, key, false, true);
        REQUIRE(a.raft->begin(true, soon()).ok());
        CHECK(a.raft->started());
        CHECK_FALSE(a.raft->begin(true, soon()).ok());  // once only
        REQUIRE(eventually([&] { return a.leads(); }, 5s));
        REQUIRE(b.raft->begin(false, soon()).ok());
        REQUIRE(a.raft->add(2, b.raft->address(), soon()).ok());
        REQUIRE(a.raft->assign(2, Role::voter, soon()).ok());
        REQUIRE(a.raft->submit(put("joined", "yes"), soon()).ok());
        CHECK(eventually([&] { return b.store->get("joined").has_value(); }, 5s));
    }
}
