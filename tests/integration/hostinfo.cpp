// tools/hostinfo against real daemons: a three-daemon VM with every VM
// service (the default --services), read once as JSON and as text; a VM
// without services; a daemon that cannot be reached.
#include "it_support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <set>

using namespace harness;
using namespace harness::it;

namespace {

std::filesystem::path hostinfo_path() {
    return HOSTINFO_PATH;
}

RunResult hostinfo(const Vm &vm, std::vector<std::string> args) {
    std::vector<std::string> argv{hostinfo_path().string(), "--root", vm.daemons[0]->root().string(), "--key",
                                  vm.key_file.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_program(argv, 20s);
}

nlohmann::json hostinfo_json(const Vm &vm) {
    auto r = hostinfo(vm, {"--json"});
    REQUIRE_MESSAGE(r.exited_ok(), r.err);
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_MESSAGE(!j.is_discarded(), r.out);
    return j;
}

std::set<std::string> ids_of(const Vm &vm) {
    std::set<std::string> out;
    for (const auto &d : vm.daemons) out.insert(d->id());
    return out;
}

std::set<std::string> service_members(const nlohmann::json &j, const std::string &name) {
    for (const auto &s : j["services"])
        if (s["name"] == name) return s["members"].get<std::set<std::string>>();
    return {};
}

}  // namespace

TEST_CASE("hostinfo --json: members, services, DRD voters and standbys, plugins per daemon") {
    auto args = fast_heartbeat_args();
    args.push_back("--services=" + test::kAllServices);
    Vm vm = start_vm(3, args);
    const auto ids = ids_of(vm);

    // events and naming name their active instance in the DRD once elected;
    // the DRD adds the later members as voters or standbys as they join.
    auto drd_nodes_of = [](const nlohmann::json &doc) {
        std::set<std::string> nodes;
        for (const auto &v : doc["drd"]["voters"]) nodes.insert(v.get<std::string>());
        for (const auto &v : doc["drd"]["standbys"]) nodes.insert(v.get<std::string>());
        return nodes;
    };
    nlohmann::json j;
    bool complete = test::wait_until(
        [&] {
            j = hostinfo_json(vm);
            return service_members(j, "events").size() == 1 && service_members(j, "naming").size() == 1 &&
                !j["drd"].is_null() && !j["drd"]["leader"].get<std::string>().empty() && drd_nodes_of(j) == ids;
        },
        20s);
    CAPTURE(j.dump(2));
    REQUIRE(complete);

    REQUIRE(j["members"].size() == 3);
    for (const auto &m : j["members"]) {
        CHECK(ids.count(m["id"].get<std::string>()) == 1);
        CHECK(m["state"] == "alive");
        CHECK(!m["address"].get<std::string>().empty());
    }
    CHECK(service_members(j, "drd") == ids);
    CHECK(service_members(j, "spawn_notify") == ids);
    CHECK(ids.count(*service_members(j, "events").begin()) == 1);
    CHECK(ids.count(*service_members(j, "naming").begin()) == 1);

    CHECK(drd_nodes_of(j) == ids);
    CHECK(ids.count(j["drd"]["leader"].get<std::string>()) == 1);

    REQUIRE(j["plugins"].size() == 3);
    for (const auto &id : ids) {
        auto list = j["plugins"][id].dump();
        for (const char *c : {"vm/drd", "vm/naming", "vm/events", "vm/spawn_notify"})
            CHECK_MESSAGE(list.find(c) != std::string::npos, id << " lacks " << c << ": " << list);
    }

    // The same for people.
    auto text = hostinfo(vm, {});
    REQUIRE_MESSAGE(text.exited_ok(), text.err);
    for (const auto &id : ids) CHECK(text.out.find(id) != std::string::npos);
    for (const char *word : {"members", "services", "voters", "standbys", "plugins", "spawn_notify"})
        CHECK(text.out.find(word) != std::string::npos);

    // A failed member shows as failed.
    const std::string victim = vm[2].id();
    vm[2].kill_hard();
    CHECK(test::wait_until(
        [&] {
            auto after = hostinfo_json(vm);
            for (const auto &m : after["members"])
                if (m["id"] == victim) return m["state"] == "failed";
            return false;
        },
        kHeartbeatTimeout + 5s));
}

TEST_CASE("hostinfo without VM services: empty services, no DRD, still one JSON document") {
    Vm vm = start_vm(2);
    auto j = hostinfo_json(vm);
    CHECK(j["members"].size() == 2);
    CHECK(j["drd"].is_null());
    CHECK(service_members(j, "drd").empty());
    CHECK(service_members(j, "events").empty());
}

TEST_CASE("hostinfo says why it cannot reach a daemon, and --json with --watch is refused") {
    test::TempDir empty;
    auto r = run_program({hostinfo_path().string(), "--root", empty.path().string(), "--hcore", "127.0.0.1:1", "--key",
                          test::write_vm_key(empty.path() / "k").string(), "--timeout", "2000"},
                         10s);
    CHECK(r.exit_code() == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("hostinfo: cannot reach a daemon") != std::string::npos);

    auto both = run_program({hostinfo_path().string(), "--json", "--watch"}, 10s);
    CHECK(both.exit_code() == 2);
    CHECK(both.err.find("does not combine") != std::string::npos);
}
