// The examples package (plugins/examples) loaded through the common loader,
// called the way a host calls it, with a fake host API.
#include <harness/common/loader.hpp>
#include <harness/common/pack.hpp>
#include <harness/common/signature.hpp>

#include <doctest/doctest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace harness;

namespace {

std::unique_ptr<LoadedLibrary> open_component(const std::string &component) {
    Resolver resolver(HARNESS_PLUGINS_ROOT);
    auto where = resolver.resolve({"examples", component});
    REQUIRE_MESSAGE(where.ok(), where.error().describe());
    auto lib = LoadedLibrary::open(where.value());
    REQUIRE_MESSAGE(lib.ok(), lib.error().describe());
    return std::move(lib.value());
}

// A host API whose load and member_id are scripted by the test.
struct FakeHost {
    std::string id = "member-7";
    int load_status = HARNESS_OK;
    std::vector<std::string> loads;
    harness_host_api api{};

    FakeHost() {
        api.struct_size = sizeof api;
        api.host = this;
        api.load = [](void *h, const char *pkg, const char *comp, char *err, size_t errlen) -> int {
            auto self = static_cast<FakeHost *>(h);
            self->loads.push_back(std::string(pkg) + "/" + comp);
            if (self->load_status != HARNESS_OK && errlen > 0) std::snprintf(err, errlen, "scripted failure");
            return self->load_status;
        };
        api.member_id = [](void *h) -> const char * { return static_cast<FakeHost *>(h)->id.c_str(); };
    }
};

// One call context with its error buffer.
struct Call {
    harness_buf error{};
    harness_call_ctx ctx{};
    explicit Call(void *state = nullptr, const harness_host_api *host = nullptr) {
        ctx.struct_size = sizeof ctx;
        ctx.plugin_state = state;
        ctx.host = host;
        ctx.error = &error;
    }
    ~Call() { harness_buf_free(&error); }
    std::string message() const { return std::string(reinterpret_cast<const char *>(error.data), error.len); }
};

// An AUTO call with arguments packed by the caller, as the daemon does it.
int call_auto(const LoadedLibrary &lib, const char *name, const Packer &args, harness_value &result, Call &call) {
    const harness_function *f = lib.find_function(name);
    REQUIRE(f != nullptr);
    REQUIRE(f->convention == HARNESS_CALL_AUTO);
    auto sig = parse_signature(f->signature);
    REQUIRE(sig.ok());
    auto values = unpack_values(sig.value(), args.view());
    REQUIRE_MESSAGE(values.ok(), values.error().describe());
    return f->automatic(&call.ctx, values->data(), values->size(), &result);
}

int call_packed(const LoadedLibrary &lib, const Packer &args, Packer &out, Call &call) {
    const harness_function *f = lib.find_function("sum");
    REQUIRE(f != nullptr);
    Unpacker u(args.view());
    return f->packed(&call.ctx, u.c_reader(), out.c_buf());
}

}  // namespace

TEST_CASE("math: AUTO functions") {
    auto lib = open_component("math");
    CHECK(lib->descriptor().level == HARNESS_LEVEL_DAEMON);
    CHECK(lib->descriptor().instance_policy == HARNESS_PER_DAEMON);
    Call call;
    harness_value r{};

    Packer add;
    add.i64(40).i64(2);
    CHECK(call_auto(*lib, "add", add, r, call) == HARNESS_OK);
    CHECK(r.v.i64 == 42);

    Packer wrap;
    wrap.i64(INT64_MAX).i64(1);
    CHECK(call_auto(*lib, "add", wrap, r, call) == HARNESS_OK);
    CHECK(r.v.i64 == INT64_MIN);

    CHECK(call_auto(*lib, "noop", Packer{}, r, call) == HARNESS_OK);
    CHECK(r.v.i64 == 0);

    CHECK(call_auto(*lib, "pid", Packer{}, r, call) == HARNESS_OK);
    CHECK(r.v.i64 == ::getpid());

    Packer scale;
    scale.f64(1.5).f64(-2);
    CHECK(call_auto(*lib, "scale", scale, r, call) == HARNESS_OK);
    CHECK(r.v.f64 == -3.0);

    Packer sleep;
    sleep.i64(5);
    CHECK(call_auto(*lib, "sleep_ms", sleep, r, call) == HARNESS_OK);
    CHECK(r.v.i64 == 5);

    Packer echo;
    echo.str("round trip");
    harness_value s{};
    CHECK(call_auto(*lib, "echo", echo, s, call) == HARNESS_OK);
    CHECK(std::string(static_cast<const char *>(s.v.blob.data), s.v.blob.len) == "round trip");
    release_value(s);

    // add is scalar, so it has a native pointer for direct calls.
    auto native = reinterpret_cast<std::int64_t (*)(std::int64_t, std::int64_t)>(lib->find_function("add")->native);
    REQUIRE((native != nullptr));
    CHECK(native(20, 22) == 42);
}

TEST_CASE("math: fail and bad sleeps report their message") {
    auto lib = open_component("math");
    harness_value r{};
    Call call;
    Packer fail;
    fail.str("as requested");
    CHECK(call_auto(*lib, "fail", fail, r, call) == HARNESS_ERR_PLUGIN_FAILED);
    CHECK(call.message() == "as requested");

    Call neg;
    Packer sleep;
    sleep.i64(-1);
    CHECK(call_auto(*lib, "sleep_ms", sleep, r, neg) == HARNESS_ERR_PLUGIN_FAILED);
    CHECK_FALSE(neg.message().empty());
}

TEST_CASE("math: default modes match the manifest") {
    auto lib = open_component("math");
    for (const auto &fn : lib->manifest().functions) {
        CAPTURE(fn.name);
        const harness_function *f = lib->find_function(fn.name);
        REQUIRE(f != nullptr);
        CHECK(f->convention == static_cast<std::uint32_t>(fn.convention));
        CHECK(f->default_mode == static_cast<std::uint32_t>(fn.default_mode));
        if (fn.convention == HARNESS_CALL_AUTO) CHECK(fn.signature == f->signature);
    }
    CHECK(lib->manifest().functions.size() == lib->descriptor().function_count);
}

TEST_CASE("math: PACKED sum") {
    auto lib = open_component("math");
    Call call;
    Packer args, out;
    args.i64(1).i64(2).i64(39);
    REQUIRE(call_packed(*lib, args, out, call) == HARNESS_OK);
    Unpacker u(out.view());
    std::int64_t total = 0, count = 0;
    REQUIRE(u.i64(total));
    REQUIRE(u.i64(count));
    CHECK(u.done());
    CHECK(total == 42);
    CHECK(count == 3);

    Packer none, out0;
    REQUIRE(call_packed(*lib, none, out0, call) == HARNESS_OK);
    Unpacker u0(out0.view());
    REQUIRE(u0.i64(total));
    REQUIRE(u0.i64(count));
    CHECK(total == 0);
    CHECK(count == 0);

    Call bad;
    Packer mixed, out1;
    mixed.i64(1).str("two");
    CHECK(call_packed(*lib, mixed, out1, bad) == HARNESS_ERR_TYPE_MISMATCH);
    CHECK(bad.message().find("item 2") != std::string::npos);

    Call over;
    Packer big, out2;
    big.i64(INT64_MAX).i64(1);
    CHECK(call_packed(*lib, big, out2, over) == HARNESS_ERR_INVALID_ARGUMENT);
}

TEST_CASE("math: RAW echo over a socket") {
    auto lib = open_component("math");
    const harness_function *f = lib->find_function("raw_echo");
    REQUIRE(f != nullptr);
    REQUIRE(f->convention == HARNESS_CALL_RAW);
    int sv[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);

    SUBCASE("echoes") {
        const char payload[] = "raw bytes\0with a zero";
        std::uint8_t head[4];
        harness_put_le(head, sizeof payload, 4);
        REQUIRE(::write(sv[0], head, 4) == 4);
        REQUIRE(::write(sv[0], payload, sizeof payload) == static_cast<ssize_t>(sizeof payload));
        Call call;
        CHECK(f->raw(&call.ctx, sv[1]) == HARNESS_OK);
        std::vector<char> back(4 + sizeof payload);
        std::size_t got = 0;
        while (got < back.size()) {
            ssize_t n = ::read(sv[0], back.data() + got, back.size() - got);
            REQUIRE(n > 0);
            got += static_cast<std::size_t>(n);
        }
        CHECK(std::memcmp(back.data(), head, 4) == 0);
        CHECK(std::memcmp(back.data() + 4, payload, sizeof payload) == 0);
    }
    SUBCASE("refuses more than 1 MiB") {
        std::uint8_t head[4];
        harness_put_le(head, (1u << 20) + 1, 4);
        REQUIRE(::write(sv[0], head, 4) == 4);
        Call call;
        CHECK(f->raw(&call.ctx, sv[1]) == HARNESS_ERR_TOO_LARGE);
        CHECK_FALSE(call.message().empty());
    }
    SUBCASE("a caller that closes early is a protocol error") {
        std::uint8_t head[4];
        harness_put_le(head, 10, 4);
        REQUIRE(::write(sv[0], head, 4) == 4);
        REQUIRE(::write(sv[0], "abc", 3) == 3);
        ::shutdown(sv[0], SHUT_WR);
        Call call;
        CHECK(f->raw(&call.ctx, sv[1]) == HARNESS_ERR_PROTOCOL);
    }
    ::close(sv[0]);
    ::close(sv[1]);
}

TEST_CASE("unique: one per VM, whoami returns the host's member id") {
    auto lib = open_component("unique");
    CHECK(lib->descriptor().instance_policy == HARNESS_ONE_PER_VM);
    FakeHost host;
    void *state = nullptr;
    char err[128] = "";
    REQUIRE(lib->descriptor().init(&host.api, &state, err, sizeof err) == HARNESS_OK);
    Call call(state, &host.api);
    harness_value r{};
    CHECK(call_auto(*lib, "whoami", Packer{}, r, call) == HARNESS_OK);
    REQUIRE(r.type == HARNESS_T_STR);
    CHECK(std::string(static_cast<const char *>(r.v.blob.data), r.v.blob.len) == "member-7");
    release_value(r);
    if (lib->descriptor().fini) lib->descriptor().fini(state);
}

TEST_CASE("dependent: init loads examples/math and fails with it") {
    auto lib = open_component("dependent");
    CHECK(lib->manifest().dependencies == std::vector<std::string>{"examples/math"});
    FakeHost host;
    void *state = nullptr;
    char err[256] = "";
    REQUIRE(lib->descriptor().init(&host.api, &state, err, sizeof err) == HARNESS_OK);
    CHECK(host.loads == std::vector<std::string>{"examples/math"});
    Call call(state, &host.api);
    harness_value r{};
    Packer x;
    x.i64(21);
    CHECK(call_auto(*lib, "twice", x, r, call) == HARNESS_OK);
    CHECK(r.v.i64 == 42);

    FakeHost failing;
    failing.load_status = HARNESS_ERR_NOT_FOUND;
    CHECK(lib->descriptor().init(&failing.api, &state, err, sizeof err) == HARNESS_ERR_LOAD_FAILED);
    CHECK(std::string(err).find("scripted failure") != std::string::npos);
}

TEST_CASE("badabi: refused before anything in it runs") {
    Resolver resolver(HARNESS_PLUGINS_ROOT);
    auto where = resolver.resolve({"examples", "badabi"});
    REQUIRE(where.ok());
    auto lib = LoadedLibrary::open(where.value());  // its init would abort()
    REQUIRE_FALSE(lib.ok());
    CHECK(lib.error().status == HARNESS_ERR_ABI_MISMATCH);
    CHECK(lib.error().message.find("99") != std::string::npos);
}

TEST_CASE("failinit: init refuses with its message") {
    auto lib = open_component("failinit");
    FakeHost host;
    void *state = nullptr;
    char err[128] = "";
    CHECK(lib->descriptor().init(&host.api, &state, err, sizeof err) == HARNESS_ERR_LOAD_FAILED);
    CHECK(std::string(err) == "failinit refuses to start");
}

TEST_CASE("direct: application level with a native add") {
    auto lib = open_component("direct");
    CHECK(lib->descriptor().level == HARNESS_LEVEL_APPLICATION);
    const harness_function *f = lib->find_function("add");
    REQUIRE(f != nullptr);
    CHECK(std::string(f->signature) == "i64(i64,i64)");
    auto native = reinterpret_cast<std::int64_t (*)(std::int64_t, std::int64_t)>(f->native);
    REQUIRE((native != nullptr));
    CHECK(native(-1, 43) == 42);
}
