// One-per-VM claims as DRD records (vm/claims/<package>/<component>), taken
// by compare-and-set: the claim names its holder in the DRD; killing the
// coordinator does not free it; three daemons loading at once give exactly
// one instance; when the holder dies, another daemon takes the claim over.
#include "vm_services_fixture.hpp"

#include <doctest/doctest.h>

#include <future>

using namespace harness;
using namespace harness::services_test;
using namespace std::chrono_literals;

namespace {

const ComponentName kUnique{"examples", "unique"};

Result<std::string> load(const test::Daemon &d, const std::filesystem::path &key_file) {
    auto key = load_key(key_file);
    REQUIRE(key.ok());
    auto conn = hlib::Connection::open_tcp(d.tcp(), *key, hlib::deadline_in(5s));
    REQUIRE_MESSAGE(conn.ok(), (conn ? "" : conn.error().describe()));
    hlib::Daemon client(std::move(conn.value()));
    return client.load(kUnique, hlib::deadline_in(15s));
}

// The member id the DRD's claim record names, read through d; "" if none.
std::string claim_holder(const test::Daemon &d, const std::filesystem::path &key_file) {
    ServiceClient c(d, key_file);
    Packer args;
    args.str("vm/claims/examples/unique").boolean(true);
    auto r = c.call("drd", "get", args, 5s);
    if (!r) return "";
    Unpacker u(*r);
    bool found = false;
    Bytes value;
    std::int64_t version = 0;
    if (!u.boolean(found) || !found || !u.bytes(value) || !u.i64(version)) return "";
    Unpacker v(value);
    std::string holder;
    return v.str(holder) ? holder : "";
}

// The live member with the smallest id: the coordinator of the old scheme.
std::size_t coordinator(ServiceVm &vm) {
    std::size_t best = vm.size();
    for (std::size_t i = 0; i < vm.size(); ++i)
        if (vm.alive(i) && (best == vm.size() || vm[i].id() < vm[best].id())) best = i;
    return best;
}

}  // namespace

TEST_CASE("one-per-VM claims live in the DRD: they survive the coordinator and pass on when the holder dies") {
    // Five daemons, five DRD voters: the two kills below leave a majority.
    ServiceVm vm(5);
    REQUIRE(vm.wait_for_drd_voters(5, 30s));
    // Only the examples package: copying over the running daemons' vm/*.so
    // would change code they have mapped.
    for (std::size_t i = 0; i < vm.size(); ++i)
        std::filesystem::copy(test::built_plugins_dir() / "examples", vm[i].root() / "lib" / "examples",
                              std::filesystem::copy_options::recursive |
                                  std::filesystem::copy_options::overwrite_existing);

    // The daemons that are not the coordinator load at the same moment.
    const std::size_t coord = coordinator(vm);
    std::vector<std::size_t> loaders;
    for (std::size_t i = 0; i < vm.size(); ++i)
        if (i != coord) loaders.push_back(i);
    std::vector<std::future<Result<std::string>>> loads;
    for (std::size_t i : loaders)
        loads.push_back(std::async(std::launch::async, [&vm, i] { return load(vm[i], vm.key_file()); }));
    std::size_t winner = vm.size();
    for (std::size_t k = 0; k < loads.size(); ++k) {
        auto r = loads[k].get();
        if (r.ok()) {
            CHECK_MESSAGE(winner == vm.size(), "two daemons loaded the one-per-VM plugin");
            winner = loaders[k];
        } else {
            CHECK_MESSAGE(r.error().status == HARNESS_ERR_ALREADY_IN_VM,
                          r.error().describe() << "\n"
                                               << vm[loaders[k]].stderr_tail());
        }
    }
    REQUIRE(winner < vm.size());
    CHECK(claim_holder(vm[coord], vm.key_file()) == vm[winner].id());

    // The coordinator dies: the claim is not its memory, it stays.
    vm.kill_hard(coord);
    std::size_t other = vm.size();
    for (std::size_t i : loaders)
        if (i != winner) other = i;
    auto refused = load(vm[other], vm.key_file());
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().status == HARNESS_ERR_ALREADY_IN_VM);
    CHECK(refused.error().message.find(vm[winner].id()) != std::string::npos);

    // The holder dies: once the VM declared it failed, another daemon takes
    // the claim over (compare-and-set on the record it read) and loads.
    const std::string dead_holder = vm[winner].id();
    vm.kill_hard(winner);
    bool took_over = test::wait_until([&] { return load(vm[other], vm.key_file()).ok(); }, 20s);
    CHECK_MESSAGE(took_over, vm[other].stderr_tail());
    CHECK(claim_holder(vm[other], vm.key_file()) == vm[other].id());
}
