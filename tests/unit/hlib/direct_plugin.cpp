// DirectPlugin: components loaded into the test process from the examples
// package (built into <build>/plugins-root/lib), called by native pointer and
// with packed arguments; init's host API loads dependencies in-process.
#include <harness/hlib.hpp>

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::hlib;

namespace {
const std::filesystem::path root = HLIB_TEST_PLUGIN_ROOT;
}

TEST_CASE("a native pointer of exactly the declared type")
{
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

TEST_CASE("functions without a native pointer are called packed; PACKED functions too")
{
    auto p = DirectPlugin::load(root, {"examples", "math"});
    REQUIRE_MESSAGE(p.ok(), p.error().describe());
    auto echo = (*p)->get<std::string(std::string)>("echo");
    REQUIRE_FALSE(echo.ok()); // str functions publish no native pointer
    CHECK(echo.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK((*p)->get<std::int64_t()>("sum").error().status == HARNESS_ERR_TYPE_MISMATCH); // PACKED

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

TEST_CASE("init loads dependencies through the in-process host")
{
    auto p = DirectPlugin::load(root, {"examples", "dependent"});
    REQUIRE_MESSAGE(p.ok(), p.error().describe());
    Packer args;
    args.i64(21);
    auto r = (*p)->call_packed("twice", args.view());
    REQUIRE_MESSAGE(r.ok(), r.error().describe());
    Unpacker u(*r);
    std::int64_t v = 0;
    CHECK(u.i64(v));
    CHECK(v == 42);
}

TEST_CASE("bad plugins are refused with the right status")
{
    auto abi = DirectPlugin::load(root, {"examples", "badabi"});
    REQUIRE_FALSE(abi.ok());
    CHECK(abi.error().status == HARNESS_ERR_ABI_MISMATCH);
    auto init = DirectPlugin::load(root, {"examples", "failinit"});
    REQUIRE_FALSE(init.ok());
    CHECK(init.error().status == HARNESS_ERR_LOAD_FAILED);
    CHECK(init.error().message.find("failinit refuses to start") != std::string::npos);
    auto none = DirectPlugin::load(root, {"examples", "nope"});
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().status == HARNESS_ERR_NOT_FOUND);
}

TEST_CASE("an application host offers no members, paths or call_local (ABI 1.1)")
{
    auto p = DirectPlugin::load(root, {"examples", "hostapi"});
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
    relay.str("examples").str("math").str("sum").bytes(Bytes{});
    auto called = (*p)->call_packed("relay", relay.view());
    REQUIRE_FALSE(called.ok());
    CHECK(called.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK(called.error().message.find("only a daemon host") != std::string::npos);
}
