// vm/drd loaded on demand: three real daemons start without it (--services=)
// and know each other; the DRD is then loaded into each, one after the other,
// all at once, or only into some. The first daemons to run it form a cluster
// among themselves (plugins/drd/README.md, "Cluster formation"): a write and
// a linearizable read succeed within a deadline, every daemon that runs the
// DRD reports the same leader, and daemons that load it later are added.
#include "drd_vm.hpp"

#include <doctest/doctest.h>

#include <thread>

using namespace harness;
using namespace harness::drd::test;
using namespace std::chrono_literals;

namespace {

// A write through daemon `via` that succeeds before the timeout, retried
// while the DRD reports that it has no leader yet.
bool put_succeeds(DrdVm &vm, std::size_t via, const std::string &key, const std::string &value,
                  std::chrono::milliseconds timeout) {
    auto c = vm.client(via);
    return harness::test::wait_until([&] { return c.put(key, value).ok(); }, timeout);
}

// The value of key as a linearizable read on daemon `via` sees it, or "".
std::string read_linearizable(DrdVm &vm, std::size_t via, const std::string &key) {
    auto c = vm.client(via);
    auto f = c.get(key, true);
    if (!f) return "error: " + f.error().describe();
    return f->found ? f->value : "";
}

std::string logs(DrdVm &vm) {
    std::string out;
    for (std::size_t i = 0; i < vm.size(); ++i)
        out += "--- daemon " + std::to_string(i) + "\n" + vm.daemon(i).stderr_tail(3000);
    return out;
}

DrdVm start_without_drd(std::size_t n) {
    DrdVm vm({}, DrdVm::Preload::none);
    for (std::size_t i = 0; i < n; ++i) vm.start_daemon();
    REQUIRE_MESSAGE(vm.wait_members(n, 20s), logs(vm));
    return vm;
}

}  // namespace

TEST_CASE("vm/drd loaded on demand on every daemon, one after the other, elects a leader") {
    DrdVm vm = start_without_drd(3);
    for (std::size_t i = 0; i < 3; ++i) {
        auto loaded = vm.load_drd(i);
        REQUIRE_MESSAGE(loaded.ok(), (loaded ? "" : loaded.error().describe()));
    }
    REQUIRE_MESSAGE(put_succeeds(vm, 0, "lazy/k", "v", 20s), logs(vm));
    CHECK(read_linearizable(vm, 2, "lazy/k") == "v");
    CHECK_MESSAGE(vm.wait_formed(3, 0, 20s), logs(vm));
}

TEST_CASE("vm/drd loaded on every daemon at the same moment forms one cluster") {
    DrdVm vm = start_without_drd(3);
    std::vector<Result<std::string>> loaded(3, Result<std::string>(std::string()));
    {
        std::vector<std::jthread> loaders;
        for (std::size_t i = 0; i < 3; ++i) loaders.emplace_back([&, i] { loaded[i] = vm.load_drd(i); });
    }
    for (const auto &l : loaded) REQUIRE_MESSAGE(l.ok(), (l ? "" : l.error().describe()));
    // One leader and three voters as every daemon sees them: two clusters
    // formed side by side would show two leaders or too few voters.
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 20s), logs(vm));
    REQUIRE(put_succeeds(vm, 1, "lazy/together", "one", 10s));
    for (std::size_t i = 0; i < 3; ++i) CHECK(read_linearizable(vm, i, "lazy/together") == "one");
}

TEST_CASE("vm/drd on some daemons only: they serve, the others join when they load it") {
    DrdVm vm = start_without_drd(3);
    auto loaded = vm.load_drd(1);
    REQUIRE_MESSAGE(loaded.ok(), (loaded ? "" : loaded.error().describe()));
    // The only daemon running the DRD forms a cluster of one: the daemons
    // without it are no voters, so they cannot stand in the way of a quorum.
    REQUIRE_MESSAGE(put_succeeds(vm, 1, "lazy/early", "e", 20s), logs(vm));
    CHECK(read_linearizable(vm, 1, "lazy/early") == "e");
    auto s = vm.client(1).status();
    REQUIRE(s.ok());
    CHECK(s->leader == vm.daemon(1).id());
    CHECK(s->voters.size() == 1);

    loaded = vm.load_drd(2);
    REQUIRE_MESSAGE(loaded.ok(), (loaded ? "" : loaded.error().describe()));
    REQUIRE_MESSAGE(put_succeeds(vm, 2, "lazy/second", "s", 20s), logs(vm));
    CHECK(read_linearizable(vm, 2, "lazy/early") == "e");

    loaded = vm.load_drd(0);
    REQUIRE_MESSAGE(loaded.ok(), (loaded ? "" : loaded.error().describe()));
    REQUIRE_MESSAGE(vm.wait_formed(3, 0, 20s), logs(vm));
    CHECK(read_linearizable(vm, 0, "lazy/early") == "e");
    CHECK(read_linearizable(vm, 0, "lazy/second") == "s");
}
