// The host API of ABI 1.1 as a daemon offers it to its plugins, seen from
// inside a real plugin (examples/hostapi) loaded into real daemons:
// list_members, root_dir, key_file and call_local (which loads the callee
// first when needed and refuses what is not PACKED).
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace harness;
using namespace harness::it;

namespace {

const ComponentName kHostApi{"examples", "hostapi"};

Vm &shared_vm() {
    static Vm vm = start_vm(2);
    return vm;
}

hlib::Daemon local_client(const Daemon &d) {
    auto deadline = hlib::deadline_in(5s);
    auto conn = hlib::Connection::open_unix(d.unix_socket(), read_key(d.key_file()), deadline);
    REQUIRE_MESSAGE(conn.ok(), (conn ? "" : conn.error().describe()));
    hlib::Daemon client(std::move(conn.value()));
    REQUIRE_MESSAGE(client.load(kHostApi, deadline).ok(), "cannot load examples/hostapi");
    return client;
}

Result<Bytes> call(hlib::Daemon &client, std::string_view function, std::span<const std::uint8_t> args = {},
                   harness_mode mode = HARNESS_MODE_DEFAULT) {
    return client.call(kHostApi, function, args, HARNESS_CALL_PACKED, mode, hlib::deadline_in(5s));
}

Bytes relay_args(std::string_view package, std::string_view component, std::string_view function,
                 std::span<const std::uint8_t> args) {
    Packer p;
    p.str(package).str(component).str(function).bytes(args);
    return p.take();
}

struct Listed {
    std::string id, address;
    std::int32_t state = -1;
    bool is_self = false;
};

std::vector<Listed> decode_members(const Bytes &reply) {
    Unpacker u(reply);
    std::int64_t n = 0;
    REQUIRE(u.i64(n));
    std::vector<Listed> out(static_cast<std::size_t>(n));
    for (auto &m : out) REQUIRE((u.str(m.id) && u.str(m.address) && u.i32(m.state) && u.boolean(m.is_self)));
    CHECK(u.done());
    return out;
}

}  // namespace

TEST_CASE("list_members visits every member in id order, itself flagged") {
    Vm &vm = shared_vm();
    auto client = local_client(vm[0]);
    for (harness_mode mode : {HARNESS_MODE_INLINE, HARNESS_MODE_THREAD, HARNESS_MODE_FORK}) {
        CAPTURE(mode);
        auto members = decode_members(value_of(call(client, "members", {}, mode)));
        REQUIRE(members.size() == 2);
        CHECK(members[0].id < members[1].id);
        for (const auto &m : members) {
            const Daemon &d = m.id == vm[0].id() ? vm[0] : vm[1];
            CHECK(m.id == d.id());
            CHECK(m.address == d.tcp().to_string());
            CHECK(m.state == HARNESS_MEMBER_ALIVE);
            CHECK(m.is_self == (m.id == vm[0].id()));
        }
    }
}

TEST_CASE("root_dir and key_file are the daemon's own") {
    Vm &vm = shared_vm();
    auto client = local_client(vm[1]);
    auto reply = value_of(call(client, "paths"));
    Unpacker u(reply);
    std::string id, root, key;
    REQUIRE((u.str(id) && u.str(root) && u.str(key) && u.done()));
    CHECK(id == vm[1].id());
    CHECK(std::filesystem::equivalent(root, vm[1].root()));
    CHECK(std::filesystem::equivalent(key, vm[1].key_file()));
}

TEST_CASE("call_local runs a PACKED function in-process, loading its component first") {
    Vm &vm = shared_vm();
    auto client = local_client(vm[0]);
    auto before = value_of(client.loaded(hlib::deadline_in(5s)));
    bool math_loaded = std::any_of(before.begin(), before.end(), [](const auto &c) { return c.name == kMath; });
    REQUIRE_FALSE(math_loaded);

    Packer items;
    items.i64(20).i64(22).i64(-2);
    auto outer = value_of(call(client, "relay", relay_args("examples", "math", "sum", items.view())));
    Unpacker u(outer);
    Bytes inner;
    REQUIRE((u.bytes(inner) && u.done()));
    Unpacker s(inner);
    std::int64_t total = 0, count = 0;
    REQUIRE((s.i64(total) && s.i64(count) && s.done()));
    CHECK(total == 40);
    CHECK(count == 3);

    auto after = value_of(client.loaded(hlib::deadline_in(5s)));
    CHECK(std::any_of(after.begin(), after.end(), [](const auto &c) { return c.name == kMath; }));

    // Nested: a call_local from inside a call_local'd function.
    Bytes nested = relay_args("examples", "hostapi", "paths", {});
    auto twice = value_of(call(client, "relay", relay_args("examples", "hostapi", "relay", nested)));
    CHECK(!twice.empty());
}

TEST_CASE("call_local refuses what it cannot do, with the reason") {
    Vm &vm = shared_vm();
    auto client = local_client(vm[0]);
    struct Case {
        std::string component, function;
        int status;
        std::string words;
    };
    Packer two;
    two.i64(1).i64(2);
    for (const Case &c : {Case{"math", "add", HARNESS_ERR_NOT_SUPPORTED, "not a PACKED function"},
                          Case{"math", "raw_echo", HARNESS_ERR_NOT_SUPPORTED, "not a PACKED function"},
                          Case{"math", "nope", HARNESS_ERR_NOT_FOUND, "no function \"nope\""},
                          Case{"nosuchcomponent", "f", HARNESS_ERR_NOT_FOUND, "nosuchcomponent"},
                          Case{"../etc", "f", HARNESS_ERR_INVALID_ARGUMENT, "invalid component name"}}) {
        CAPTURE(c.function);
        auto r = call(client, "relay", relay_args("examples", c.component, c.function, two.view()));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().status == c.status);
        CHECK_MESSAGE(r.error().message.find(c.words) != std::string::npos, r.error().message);
    }
    // The callee's own error comes back with its status and message.
    Packer wrong;
    wrong.str("not a number");
    auto failed = call(client, "relay", relay_args("examples", "math", "sum", wrong.view()));
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().status == HARNESS_ERR_TYPE_MISMATCH);
    CHECK(failed.error().message.find("is not an i64") != std::string::npos);

    // Malformed arguments to the relay itself: an error, and the daemon serves on.
    Packer junk;
    junk.i64(7);
    CHECK(call(client, "relay", junk.view()).error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(client.ping(hlib::deadline_in(2s)).ok());
}
