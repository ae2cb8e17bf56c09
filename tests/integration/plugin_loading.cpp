// Plugin loading through real daemons: ABI refusal before anything in the
// plugin runs (badabi's init and fini abort, so a daemon that calls them dies
// and the test sees it), init failures with the plugin's message, the load
// dependency tree, idempotence, one-per-VM components, and missing ones.
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <future>

using namespace harness;
using namespace harness::it;

namespace {

const ComponentName kBadAbi{"examples", "badabi"};
const ComponentName kFailInit{"examples", "failinit"};
const ComponentName kDependent{"examples", "dependent"};
const ComponentName kUnique{"examples", "unique"};

Vm &shared_vm() {
    static Vm vm = start_vm(2);
    return vm;
}

hlib::Daemon daemon_client(Daemon &d) {
    auto conn = hlib::Connection::open_unix(d.unix_socket(), read_key(d.key_file()), hlib::deadline_in(5s));
    REQUIRE_MESSAGE(conn.ok(), (conn ? "" : describe(conn.error())));
    return hlib::Daemon(std::move(conn.value()));
}

Result<std::string> load(Daemon &d, const ComponentName &name) {
    auto client = daemon_client(d);
    return client.load(name, hlib::deadline_in(10s));
}

// The components d has loaded, in its order.
std::vector<std::string> loaded_names(Daemon &d) {
    auto client = daemon_client(d);
    auto loaded = client.loaded(hlib::deadline_in(5s));
    REQUIRE_MESSAGE(loaded.ok(), (loaded ? "" : describe(loaded.error())));
    std::vector<std::string> out;
    for (const auto &c : *loaded) out.push_back(c.name.to_string());
    return out;
}

bool has(const std::vector<std::string> &v, const std::string &s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

void check_alive(Daemon &d) {
    REQUIRE_MESSAGE(d.running(), "hcored died; stderr:\n" << d.stderr_tail());
    auto client = daemon_client(d);
    CHECK(client.ping(hlib::deadline_in(3s)).ok());
}

}  // namespace

TEST_CASE("a plugin built for another ABI is refused with ABI_MISMATCH before its init runs") {
    Daemon &d = shared_vm()[0];
    for (int attempt = 0; attempt < 2; ++attempt) {
        CAPTURE(attempt);
        auto r = load(d, kBadAbi);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().status == HARNESS_ERR_ABI_MISMATCH);
        CAPTURE(r.error().message);
        CHECK(r.error().message.find("99") != std::string::npos);  // says which ABI it was built for
    }
    check_alive(d);  // its init aborts: had it run, the daemon would be gone
    CHECK_FALSE(has(loaded_names(d), kBadAbi.to_string()));
}

TEST_CASE("a plugin whose init fails is refused with init's own message, and nothing of it stays") {
    Daemon &d = shared_vm()[0];
    for (int attempt = 0; attempt < 2; ++attempt) {
        CAPTURE(attempt);
        auto r = load(d, kFailInit);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().status == HARNESS_ERR_LOAD_FAILED);
        CHECK(r.error().message.find("failinit refuses to start") != std::string::npos);
    }
    CHECK_FALSE(has(loaded_names(d), kFailInit.to_string()));
    auto client = daemon_client(d);
    auto call = client.call(kFailInit, "never", {}, HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, hlib::deadline_in(3s));
    REQUIRE_FALSE(call.ok());
    CHECK(call.error().status == HARNESS_ERR_NOT_FOUND);
    check_alive(d);  // fini and never() abort: neither ran
}

TEST_CASE("the load dependency tree: loading dependent loads math first, through its init") {
    auto fresh = Daemon::start();
    Daemon &d = *fresh;
    REQUIRE_FALSE(has(loaded_names(d), kMath.to_string()));
    auto r = load(d, kDependent);
    REQUIRE_MESSAGE(r.ok(), (r ? "" : describe(r.error())));
    CHECK(*r == "1.0.0");
    auto names = loaded_names(d);
    REQUIRE(has(names, kMath.to_string()));
    REQUIRE(has(names, kDependent.to_string()));
    // The dependency finished loading before its dependent.
    CHECK(std::find(names.begin(), names.end(), kMath.to_string()) <
          std::find(names.begin(), names.end(), kDependent.to_string()));

    auto client = daemon_client(d);
    Packer args;
    args.i64(21);
    auto twice =
        client.call(kDependent, "twice", args.view(), HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, hlib::deadline_in(3s));
    REQUIRE_MESSAGE(twice.ok(), (twice ? "" : describe(twice.error())));
    Unpacker u(*twice);
    std::int64_t v = 0;
    CHECK((u.i64(v) && v == 42));
    Packer add_args;
    add_args.i64(1).i64(2);
    CHECK(
        client.call(kMath, "add", add_args.view(), HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, hlib::deadline_in(3s)).ok());
}

TEST_CASE("loading is idempotent: again, and from several clients at once, gives one instance") {
    Daemon &d = shared_vm()[0];
    std::vector<std::future<Result<std::string>>> loads;
    for (int i = 0; i < 4; ++i) loads.push_back(std::async(std::launch::async, [&] { return load(d, kMath); }));
    for (auto &f : loads) {
        auto r = f.get();
        REQUIRE_MESSAGE(r.ok(), (r ? "" : describe(r.error())));
        CHECK(*r == "1.0.0");
    }
    auto again = load(d, kMath);
    REQUIRE(again.ok());
    auto names = loaded_names(d);
    CHECK(std::count(names.begin(), names.end(), kMath.to_string()) == 1);

    // Placement all, twice: every member answers with the version each time.
    auto vm = connect(d);
    for (int round = 0; round < 2; ++round)
        for (const auto &r : vm.load(kMath, {hlib::Placement::Kind::all, {}}))
            CHECK_MESSAGE(r.result.ok(), r.member_id << ": " << (r.result ? "" : describe(r.result.error())));
    for (auto &member : shared_vm().daemons) {
        auto n = loaded_names(*member);
        CHECK(std::count(n.begin(), n.end(), kMath.to_string()) == 1);
    }
}

TEST_CASE("a one-per-VM plugin loads on one daemon and is refused on another with ALREADY_IN_VM") {
    Vm &vm = shared_vm();
    auto first = load(vm[0], kUnique);
    REQUIRE_MESSAGE(first.ok(), (first ? "" : describe(first.error())));
    auto second = load(vm[1], kUnique);
    REQUIRE_FALSE(second.ok());
    CHECK(second.error().status == HARNESS_ERR_ALREADY_IN_VM);
    CHECK(second.error().message.find(vm[0].id()) != std::string::npos);  // names the holder
    CHECK_FALSE(has(loaded_names(vm[1]), kUnique.to_string()));

    // On its holder, loading again is still idempotent, and whoami names it.
    CHECK(load(vm[0], kUnique).ok());
    auto client = daemon_client(vm[0]);
    auto who = client.call(kUnique, "whoami", {}, HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, hlib::deadline_in(3s));
    REQUIRE_MESSAGE(who.ok(), (who ? "" : describe(who.error())));
    Unpacker u(*who);
    std::string id;
    CHECK((u.str(id) && id == vm[0].id()));

    // Placement single_instance from the other daemon finds the running one.
    // Hlib asks LOCATE, which is answered from heartbeat gossip: wait for it.
    auto from_second = connect(vm[1]);
    REQUIRE(test::wait_until(
        [&] {
            auto where = from_second.where_loaded(kUnique);
            return where && where->size() == 1 && where->front() == vm[0].id();
        },
        3s));
    auto placed = from_second.load(kUnique, {hlib::Placement::Kind::single_instance, {}});
    REQUIRE(placed.size() == 1);
    CHECK(placed[0].member_id == vm[0].id());
    CHECK(placed[0].result.ok());
    check_alive(vm[1]);
}

TEST_CASE("a one-per-VM plugin loaded on two daemons at the same moment: exactly one wins") {
    Vm vm = start_vm(3);
    std::vector<std::future<Result<std::string>>> loads;
    for (auto &d : vm.daemons) {
        Daemon *p = d.get();
        loads.push_back(std::async(std::launch::async, [p] { return load(*p, kUnique); }));
    }
    int won = 0;
    for (auto &f : loads) {
        auto r = f.get();
        if (r.ok())
            ++won;
        else
            CHECK_MESSAGE(r.error().status == HARNESS_ERR_ALREADY_IN_VM, describe(r.error()));
    }
    CHECK(won == 1);
    int holders = 0;
    for (auto &d : vm.daemons) holders += has(loaded_names(*d), kUnique.to_string());
    CHECK(holders == 1);
}

TEST_CASE("a component that is not in lib/ is NOT_FOUND with a message naming it") {
    Daemon &d = shared_vm()[0];
    for (const ComponentName &name : {ComponentName{"examples", "nosuch"}, ComponentName{"nopackage", "math"}}) {
        CAPTURE(name.to_string());
        auto r = load(d, name);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().status == HARNESS_ERR_NOT_FOUND);
        CAPTURE(r.error().message);
        CHECK(r.error().message.find(name.to_string()) != std::string::npos);
    }
    auto bad = load(d, {"..", "x"});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().status == HARNESS_ERR_INVALID_ARGUMENT);
    check_alive(d);
}

TEST_CASE("direct loading into this process applies the same checks") {
    const auto &root = shared_vm()[0].root();
    // Both are daemon-level plugins, refused by level before dlopen: had
    // badabi's init run, this process would have aborted. (The ABI and init
    // checks of in-process loading: tests/unit/hlib/direct_plugin.cpp.)
    auto abi = hlib::DirectPlugin::load(root, kBadAbi);
    REQUIRE_FALSE(abi.ok());
    CHECK(abi.error().status == HARNESS_ERR_NOT_SUPPORTED);
    auto level = hlib::DirectPlugin::load(root, kFailInit);
    REQUIRE_FALSE(level.ok());
    CHECK(level.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK(level.error().message.find("is a daemon-level plugin") != std::string::npos);
    auto missing = hlib::DirectPlugin::load(root, {"examples", "nosuch"});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().status == HARNESS_ERR_NOT_FOUND);
}

TEST_CASE("levels: a daemon refuses to load an application-level plugin, and RESOLVEs it for a process instead") {
    auto &d = shared_vm()[0];
    const ComponentName direct{"examples", "direct"};
    auto loaded = load(d, direct);
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK(loaded.error().message ==
          "examples/direct is an application-level plugin: it is loaded into application processes through Hlib "
          "(DirectPlugin), never into a daemon");
    CHECK_FALSE(has(loaded_names(d), "examples/direct"));

    auto client = daemon_client(d);
    auto resolved = client.resolve(direct, hlib::deadline_in(10s));
    REQUIRE_MESSAGE(resolved.ok(), (resolved ? "" : describe(resolved.error())));
    CHECK(resolved->version == "1.0.0");
    CHECK(resolved->where.shared_object == d.root() / "lib" / "examples" / "direct.so");
    CHECK_FALSE(has(loaded_names(d), "examples/direct"));  // found, not loaded

    auto daemon_level = client.resolve({"examples", "math"}, hlib::deadline_in(10s));
    REQUIRE_FALSE(daemon_level.ok());
    CHECK(daemon_level.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK(daemon_level.error().message.find("examples/math is a daemon-level plugin") != std::string::npos);
    auto missing = client.resolve({"examples", "nosuch"}, hlib::deadline_in(10s));
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().status == HARNESS_ERR_NOT_FOUND);
    check_alive(d);
}
