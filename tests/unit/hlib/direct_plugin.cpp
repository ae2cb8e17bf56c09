// DirectPlugin: application-level components loaded into the test process —
// examples/direct (<build>/plugins-root/lib) and the ABI test plugins
// (<build>/tests/abi-root, tests/unit/plugins/abi) — called by native
// pointer, with packed arguments and through typed interfaces; init's host
// API loads dependencies in-process; daemon-level plugins are refused. No
// daemon runs here: the resolver's third step (asking the daemon) reports
// that there is none (tests/fetch/test_direct_fetch.cpp covers it).
#include "abitest_counter.h"
#include "examples_adder.h"

#include <harness/hlib/hlib.hpp>

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::hlib;

namespace {
const std::filesystem::path root = HLIB_TEST_PLUGIN_ROOT;
const std::filesystem::path abi_root = HARNESS_ABI_TEST_ROOT;
}  // namespace

TEST_CASE("a native pointer of exactly the declared type") {
    auto p = DirectPlugin::load(root, {"examples", "direct"});
    REQUIRE_MESSAGE(p.ok(), p.error().describe());
    auto add = (*p)->get<std::int64_t(std::int64_t, std::int64_t)>("add");
    REQUIRE_MESSAGE(add.ok(), add.error().describe());
    CHECK((*add)(40, 2) == 42);

    auto wrong = (*p)->get<std::int32_t(std::int32_t, std::int32_t)>("add");
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().status == HARNESS_ERR_TYPE_MISMATCH);
    auto missing = (*p)->get<std::int64_t()>("nope");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().status == HARNESS_ERR_NOT_FOUND);

    Packer args;
    args.i64(2).i64(3);
    auto packed = (*p)->call_packed("add", args.view());
    REQUIRE_MESSAGE(packed.ok(), packed.error().describe());
    Unpacker u(*packed);
    std::int64_t sum = 0;
    CHECK(u.i64(sum));
    CHECK(u.done());
    CHECK(sum == 5);

    Packer bad;
    bad.str("x");
    auto refused = (*p)->call_packed("add", bad.view());
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().status == HARNESS_ERR_TYPE_MISMATCH);
}

TEST_CASE("typed interfaces: the ops table by name and minimum version, or an error naming what is missing") {
    auto p = DirectPlugin::load(root, {"examples", "direct"});
    REQUIRE_MESSAGE(p.ok(), p.error().describe());
    auto adder = (*p)->interface_as<examples_adder_ops>(EXAMPLES_ADDER_INTERFACE, EXAMPLES_ADDER_VERSION);
    REQUIRE_MESSAGE(adder.ok(), adder.error().describe());
    REQUIRE((*adder)->struct_size >= sizeof(examples_adder_ops));
    CHECK((*adder)->add(40, 2) == 42);
    const std::int64_t values[] = {1, 2, 3, 36};
    CHECK((*adder)->sum(values, 4) == 42);

    auto newer = (*p)->interface(EXAMPLES_ADDER_INTERFACE, EXAMPLES_ADDER_VERSION + 1);
    REQUIRE_FALSE(newer.ok());
    CHECK(newer.error().status == HARNESS_ERR_NOT_FOUND);
    CHECK(newer.error().message ==
          "examples/direct 1.0.0 has no interface examples.adder v2 or newer (it exports examples.adder v1)");

    auto counter = DirectPlugin::load(abi_root, {"abitest", "good"});
    REQUIRE_MESSAGE(counter.ok(), counter.error().describe());
    auto v2 = (*counter)->interface_as<abitest_counter_ops>("abitest.counter", 1);
    REQUIRE(v2.ok());
    CHECK((*v2)->next(0) == 2);  // the highest version exported

    auto old = DirectPlugin::load(abi_root, {"abitest", "old"});
    REQUIRE_MESSAGE(old.ok(), old.error().describe());
    auto none = (*old)->interface("abitest.counter", 0);
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().message.find(
              "abitest/old 1.1.0 has no interface abitest.counter v0 or newer (it exports none)") != std::string::npos);
}

TEST_CASE("daemon-level plugins are refused before dlopen, with a message saying where they run") {
    for (const char *component : {"math", "dependent", "failinit", "hostapi"}) {
        CAPTURE(component);
        auto p = DirectPlugin::load(root, {"examples", component});
        REQUIRE_FALSE(p.ok());
        CHECK(p.error().status == HARNESS_ERR_NOT_SUPPORTED);
        CHECK(p.error().message ==
              "examples/" + std::string(component) +
                  " is a daemon-level plugin: it runs inside a daemon and is called through the VM "
                  "(load, then call), never loaded into an application process");
    }
}

TEST_CASE("functions without a native pointer are called packed; PACKED functions too") {
    auto p = DirectPlugin::load(abi_root, {"abitest", "good"});
    REQUIRE_MESSAGE(p.ok(), p.error().describe());
    auto echo = (*p)->get<std::string(std::string)>("echo");
    REQUIRE_FALSE(echo.ok());  // str functions publish no native pointer
    CHECK(echo.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK((*p)->get<std::int64_t()>("sum").error().status == HARNESS_ERR_TYPE_MISMATCH);  // PACKED

    Packer args;
    args.str("hi");
    auto r = (*p)->call_packed("echo", args.view());
    REQUIRE_MESSAGE(r.ok(), r.error().describe());
    Unpacker u(*r);
    std::string back;
    CHECK(u.str(back));
    CHECK(back == "hi");

    Packer items;
    items.i64(1).i64(2).i64(4);
    auto sum = (*p)->call_packed("sum", items.view());
    REQUIRE_MESSAGE(sum.ok(), sum.error().describe());
    Unpacker s(*sum);
    std::int64_t total = 0, count = 0;
    CHECK(s.i64(total));
    CHECK(s.i64(count));
    CHECK(total == 7);
    CHECK(count == 3);

    Packer why;
    why.str("on purpose");
    auto failed = (*p)->call_packed("fail", why.view());
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().status == HARNESS_ERR_PLUGIN_FAILED);
    CHECK(failed.error().message.find("on purpose") != std::string::npos);
}

TEST_CASE("init loads dependencies through the in-process host") {
    // abitest/good's init loads abitest/old through the host and fails if it
    // cannot; old is then loaded once, and a second load finds it.
    auto p = DirectPlugin::load(abi_root, {"abitest", "good"});
    REQUIRE_MESSAGE(p.ok(), p.error().describe());
    auto again = DirectPlugin::load(abi_root, {"abitest", "good"});
    REQUIRE_MESSAGE(again.ok(), again.error().describe());
}

TEST_CASE("bad plugins are refused with the right status") {
    auto abi = DirectPlugin::load(abi_root, {"abitest", "null_ops"});  // its init would abort()
    REQUIRE_FALSE(abi.ok());
    CHECK(abi.error().status == HARNESS_ERR_ABI_MISMATCH);
    CHECK(abi.error().message.find("has no ops table") != std::string::npos);
    auto init = DirectPlugin::load(abi_root, {"abitest", "failinit"});
    REQUIRE_FALSE(init.ok());
    CHECK(init.error().status == HARNESS_ERR_LOAD_FAILED);
    CHECK(init.error().message.find("abitest/failinit refuses to start") != std::string::npos);
    auto none = DirectPlugin::load(root, {"examples", "nope"});
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().status == HARNESS_ERR_NOT_FOUND);
    // No daemon serves this root: the message says where it looked and why
    // the daemon could not be asked.
    CHECK(none.error().message.find("no plugin examples/nope in") != std::string::npos);
    CHECK(none.error().message.find("no local daemon to fetch it") != std::string::npos);

    DirectLoadOptions local_only;
    local_only.ask_daemon = false;
    auto quiet = DirectPlugin::load(root, {"examples", "nope"}, local_only);
    REQUIRE_FALSE(quiet.ok());
    CHECK(quiet.error().status == HARNESS_ERR_NOT_FOUND);
    CHECK(quiet.error().message.find("no local daemon") == std::string::npos);
}

TEST_CASE("an application host offers no members, paths or call_local (ABI 1.1)") {
    auto p = DirectPlugin::load(abi_root, {"abitest", "good"});
    REQUIRE_MESSAGE(p.ok(), p.error().describe());
    auto paths = (*p)->call_packed("paths", {});
    REQUIRE_MESSAGE(paths.ok(), paths.error().describe());
    Unpacker u(*paths);
    std::string id = "x", root_dir = "x", key = "x";
    CHECK((u.str(id) && u.str(root_dir) && u.str(key) && u.done()));
    CHECK(id.empty());
    CHECK(root_dir.empty());
    CHECK(key.empty());

    auto members = (*p)->call_packed("members", {});
    REQUIRE_FALSE(members.ok());
    CHECK(members.error().status == HARNESS_ERR_NOT_SUPPORTED);

    Packer relay;
    relay.str("abitest").str("old").str("add").bytes(Bytes{});
    auto called = (*p)->call_packed("relay", relay.view());
    REQUIRE_FALSE(called.ok());
    CHECK(called.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK(called.error().message.find("only a daemon host") != std::string::npos);
}
