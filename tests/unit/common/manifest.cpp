// Manifests (parse_manifest in harness/common/loader.hpp): the documented keys, the
// defaults, refusals, and every manifest of the examples package.
#include <harness/common/loader.hpp>

#include <doctest/doctest.h>

#include <filesystem>

using namespace harness;

TEST_CASE("a full manifest parses") {
    auto m = parse_manifest(R"J({
      "package": "examples", "component": "dependent", "version": "1.2.3",
      "abi_major": 1, "abi_minor": 0, "level": "application", "instance_policy": "one_per_vm",
      "dependencies": ["examples/math"], "cache_ttl_seconds": 60,
      "functions": [
        {"name": "twice", "convention": "auto", "default_mode": "service", "signature": "i64(i64)"},
        {"name": "sum", "convention": "packed", "default_mode": "fork"},
        {"name": "raw", "convention": "raw", "default_mode": "thread"}
      ]})J");
    REQUIRE(m.ok());
    CHECK(m->package == "examples");
    CHECK(m->component == "dependent");
    CHECK(m->version == "1.2.3");
    CHECK(m->abi_major == 1);
    CHECK(m->level == HARNESS_LEVEL_APPLICATION);
    CHECK(m->instance_policy == HARNESS_ONE_PER_VM);
    CHECK(m->dependencies == std::vector<std::string>{"examples/math"});
    CHECK(m->cache_ttl == std::chrono::seconds(60));
    REQUIRE(m->functions.size() == 3);
    CHECK(m->functions[0].convention == HARNESS_CALL_AUTO);
    CHECK(m->functions[0].default_mode == HARNESS_MODE_SERVICE);
    CHECK(m->functions[0].signature == "i64(i64)");
    CHECK(m->functions[1].convention == HARNESS_CALL_PACKED);
    CHECK(m->functions[1].default_mode == HARNESS_MODE_FORK);
    CHECK(m->functions[2].convention == HARNESS_CALL_RAW);
    CHECK(m->functions[2].default_mode == HARNESS_MODE_THREAD);
}

TEST_CASE("ABI 1.2: the interfaces a plugin exports are listed by name and version") {
    auto m = parse_manifest(R"J({"package": "comm", "component": "shm", "version": "1", "level": "application",
      "interfaces": [{"name": "ftmpi.transport", "version": 1}, {"name": "ftmpi.transport", "version": 2}]})J");
    REQUIRE(m.ok());
    REQUIRE(m->interfaces.size() == 2);
    CHECK(m->interfaces[0].name == "ftmpi.transport");
    CHECK(m->interfaces[0].version == 1);
    CHECK(m->interfaces[1].version == 2);
}

TEST_CASE("defaults") {
    auto m = parse_manifest(R"J({"package": "p", "component": "c", "version": "1"})J");
    REQUIRE(m.ok());
    CHECK(m->level == HARNESS_LEVEL_DAEMON);
    CHECK(m->instance_policy == HARNESS_PER_DAEMON);
    CHECK(m->dependencies.empty());
    CHECK(m->cache_ttl == std::chrono::seconds(3600));
    CHECK(m->functions.empty());
    CHECK(m->interfaces.empty());
}

TEST_CASE("bad manifests are refused") {
    for (
        const char *text : {
            "",
            "[]",
            "{",
            R"J({"component": "c", "version": "1"})J",
            R"J({"package": "../etc", "component": "c", "version": "1"})J",
            R"J({"package": "p", "component": "..", "version": "1"})J",
            R"J({"package": "p", "component": "c", "version": 1})J",
            R"J({"package": "p", "component": "c", "version": "1", "level": "kernel"})J",
            R"J({"package": "p", "component": "c", "version": "1", "instance_policy": "many"})J",
            R"J({"package": "p", "component": "c", "version": "1", "dependencies": ["nocomp"]})J",
            R"J({"package": "p", "component": "c", "version": "1", "dependencies": [3]})J",
            R"J({"package": "p", "component": "c", "version": "1", "cache_ttl_seconds": -1})J",
            R"J({"package": "p", "component": "c", "version": "1", "cache_ttl_seconds": 3.6e49})J",
            R"J({"package": "p", "component": "c", "version": "1", "abi_major": 3.6e49})J",
            R"J({"package": "p", "component": "c", "version": "1", "abi_minor": 1.5})J",
            R"J({"package": "p", "component": "c", "version": "1", "abi_major": 4294967296})J",
            R"J({"package": "p", "component": "c", "version": "1", "abi_minor": "1"})J",
            R"J({"package": "p", "component": "c", "version": "1", "interfaces": [{"name": "i", "version": 1e30}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "functions": [{"convention": "auto"}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "functions": [{"name": "f", "convention": "x"}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "functions": [{"name": "f", "default_mode": "y"}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "interfaces": [{"version": 1}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "interfaces": [{"name": "i"}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "interfaces": [{"name": "", "version": 1}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "interfaces": [{"name": "i", "version": -1}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "interfaces": [{"name": "i", "version": 4294967296}]})J",
            R"J({"package": "p", "component": "c", "version": "1", "interfaces": [{"name": "i", "version": "1"}]})J",
        }) {
        CAPTURE(text);
        auto m = parse_manifest(text);
        REQUIRE_FALSE(m.ok());
        CHECK(m.error().status == HARNESS_ERR_LOAD_FAILED);
    }
}

#ifdef HARNESS_EXAMPLES_SOURCE_DIR
TEST_CASE("every manifest of the examples package parses and names its file") {
    int seen = 0;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(HARNESS_EXAMPLES_SOURCE_DIR)) {
        if (entry.path().extension() != ".json") continue;
        CAPTURE(entry.path().string());
        auto m = read_manifest(entry.path());
        REQUIRE(m.ok());
        CHECK(m->package == "examples");
        CHECK(m->component == entry.path().stem().string());
        CHECK(m->abi_major == HARNESS_PLUGIN_ABI_MAJOR);
        ++seen;
    }
    CHECK(seen == 7);  // math, unique, dependent, badabi, failinit, direct, hostapi
}
#endif
