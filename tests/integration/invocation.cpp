// examples/math loaded into every daemon of a three-daemon VM with
// VirtualMachine::load(Placement all), then invoked by every method of the
// issue — direct, Unix socket, TCP, UDP; inline, thread, fork, service — and
// every encoding — RAW, PACKED, AUTO — synchronously, asynchronously and in
// parallel. examples/math's pid() tells which process ran a call, so each
// test also checks the call reached the daemon (or handler) it meant to.
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

using namespace harness;
using namespace harness::it;

namespace {

// One VM for the whole file, with math loaded everywhere by the first test
// that needs it.
Vm &shared_vm() {
    static Vm vm = start_vm(3);
    return vm;
}

Vm &vm_with_math() {
    static bool loaded = false;
    Vm &vm = shared_vm();
    if (!loaded) {
        auto client = connect(vm[0]);
        for (const auto &r : client.load(kMath, {hlib::Placement::Kind::all, {}}))
            REQUIRE_MESSAGE(r.result.ok(), r.member_id << ": " << (r.result ? "" : r.result.error().describe()));
        loaded = true;
    }
    return vm;
}

Daemon &daemon_with_id(Vm &vm, const std::string &id) {
    for (auto &d : vm.daemons)
        if (d->id() == id) return *d;
    FAIL("no daemon with id " << id);
    throw std::logic_error("unreachable");
}

hlib::FunctionRef ref_on(hlib::VirtualMachine &client, const std::string &member_id, std::string_view function) {
    auto refs = value_of(client.get_functions(kMath, function));
    for (const auto &r : refs)
        if (r.member_id == member_id) return r;
    FAIL("no reference to " << function << " on member " << member_id);
    throw std::logic_error("unreachable");
}

hlib::CallOptions opts(hlib::Transport t, harness_mode mode = HARNESS_MODE_DEFAULT) {
    hlib::CallOptions o;
    o.transport = t;
    o.mode = mode;
    o.timeout = 5s;
    return o;
}

// Speaks raw_echo's protocol: u32 length + bytes out, the same back.
Result<void> echo_raw(int fd, const std::string &payload, std::string *echoed) {
    std::uint8_t len[4];
    harness_put_le(len, payload.size(), 4);
    Bytes out(len, len + 4);
    out.insert(out.end(), payload.begin(), payload.end());
    std::size_t sent = 0;
    while (sent < out.size()) {
        ssize_t n = ::send(fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return make_error(HARNESS_ERR_UNREACHABLE, std::string("send: ") + std::strerror(errno));
        sent += static_cast<std::size_t>(n);
    }
    Bytes in(out.size());
    std::size_t got = 0;
    while (got < in.size()) {
        ssize_t n = ::recv(fd, in.data() + got, in.size() - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0)
            return make_error(HARNESS_ERR_UNREACHABLE,
                              "the daemon closed the connection after " + std::to_string(got) + " bytes");
        if (n < 0) return make_error(HARNESS_ERR_UNREACHABLE, std::string("recv: ") + std::strerror(errno));
        got += static_cast<std::size_t>(n);
    }
    if (std::memcmp(in.data(), len, 4) != 0) return make_error(HARNESS_ERR_PROTOCOL, "length not echoed");
    echoed->assign(in.begin() + 4, in.end());
    return {};
}

}  // namespace

TEST_CASE("load with Placement all puts examples/math on every member, and the VM knows where") {
    Vm &vm = shared_vm();
    auto client = connect(vm[0]);
    auto results = client.load(kMath, {hlib::Placement::Kind::all, {}});
    REQUIRE(results.size() == 3);
    std::set<std::string> ids;
    for (const auto &r : results) {
        CAPTURE(r.member_id);
        REQUIRE_MESSAGE(r.result.ok(), (r.result ? "" : describe(r.result.error())));
        CHECK(*r.result == "1.0.0");
        ids.insert(r.member_id);
    }
    CHECK(ids == std::set<std::string>{vm[0].id(), vm[1].id(), vm[2].id()});

    // Each daemon says so itself…
    for (const auto &per : client.loaded_everywhere()) {
        CAPTURE(per.member_id);
        auto loaded = value_of(per.result);
        bool has_math = false;
        for (const auto &c : loaded) has_math |= c.name == kMath;
        CHECK(has_math);
    }
    // …and LOCATE, answered from heartbeat gossip, catches up within a few periods.
    CHECK(test::wait_until(
        [&] {
            auto where = client.where_loaded(kMath);
            return where && std::set<std::string>(where->begin(), where->end()) == ids;
        },
        3s));
}

TEST_CASE("direct invocation: examples/direct's native add runs in this process") {
    Vm &vm = shared_vm();
    auto plugin = value_of(hlib::DirectPlugin::load(vm[0].root(), {"examples", "direct"}));
    auto add = value_of(plugin->get<std::int64_t(std::int64_t, std::int64_t)>("add"));
    CHECK(add(40, 2) == 42);
    CHECK(add(INT64_MAX, 1) == INT64_MIN);  // wraps, as documented

    // The pointer is refused under a type the signature does not say.
    auto wrong = plugin->get<double(double)>("add");
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().status == HARNESS_ERR_TYPE_MISMATCH);

    Packer args;
    args.i64(5).i64(6);
    auto packed = value_of(plugin->call_packed("add", args.view()));
    Unpacker u(packed);
    std::int64_t sum = 0;
    CHECK((u.i64(sum) && u.done()));
    CHECK(sum == 11);
}

TEST_CASE("AUTO add and echo on the local daemon over the Unix socket and over TCP") {
    Vm &vm = vm_with_math();
    for (bool over_tcp : {false, true}) {
        CAPTURE(over_tcp);
        auto client = connect(vm[0], over_tcp);
        CHECK(client.local().connection().transport() ==
              (over_tcp ? hlib::Transport::tcp : hlib::Transport::unix_socket));
        auto add = value_of(client.get_function(kMath, "add"));
        CHECK(add.member_id == vm[0].id());  // the local daemon is preferred
        CHECK(value_of(client.call<std::int64_t>(add, opts(hlib::Transport::tcp), std::int64_t{2}, std::int64_t{3})) ==
              5);
        auto echo = value_of(client.get_function(kMath, "echo"));
        CHECK(value_of(client.call<std::string>(echo, opts(hlib::Transport::tcp), "héllo\n")) == "héllo\n");
        auto pid = value_of(client.get_function(kMath, "pid"));
        CHECK(value_of(client.call<std::int64_t>(pid, opts(hlib::Transport::tcp, HARNESS_MODE_INLINE))) == vm[0].pid());
    }
}

TEST_CASE("remote calls over TCP and UDP reach the daemon they name") {
    Vm &vm = vm_with_math();
    auto client = connect(vm[0]);
    for (auto transport : {hlib::Transport::tcp, hlib::Transport::udp}) {
        for (std::size_t i = 1; i < 3; ++i) {
            CAPTURE(static_cast<int>(transport));
            CAPTURE(i);
            auto pid = ref_on(client, vm[i].id(), "pid");
            CHECK(value_of(client.call<std::int64_t>(pid, opts(transport, HARNESS_MODE_INLINE))) == vm[i].pid());
            auto add = ref_on(client, vm[i].id(), "add");
            CHECK(value_of(client.call<std::int64_t>(add, opts(transport), std::int64_t{-7}, std::int64_t{10})) == 3);
            auto echo = ref_on(client, vm[i].id(), "echo");
            std::string text(1000, 'x');
            CHECK(value_of(client.call<std::string>(echo, opts(transport), text)) == text);
            auto scale = ref_on(client, vm[i].id(), "scale");
            CHECK(value_of(client.call<double>(scale, opts(transport), 1.5, -2.0)) == doctest::Approx(-3.0));
        }
    }
}

TEST_CASE("large arguments and results: a frame of several read chunks crosses intact, many times over") {
    // The daemon reads a frame in chunks; a body several chunks long (and
    // several such calls on one connection) must arrive whole and in order.
    Vm &vm = vm_with_math();
    for (bool over_tcp : {false, true}) {
        CAPTURE(over_tcp);
        auto client = connect(vm[0], over_tcp);
        auto echo = value_of(client.get_function(kMath, "echo"));
        for (std::size_t size : {std::size_t{65000}, std::size_t{200000}, std::size_t{1} << 20}) {
            CAPTURE(size);
            std::string text(size, '\0');
            for (std::size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + (i * 7 + size) % 26);
            for (int round = 0; round < 3; ++round) {
                auto back = client.call<std::string>(echo, opts(hlib::Transport::tcp), text);
                REQUIRE_MESSAGE(back.ok(), (back ? "" : describe(back.error())));
                CHECK(*back == text);
            }
        }
    }
}

TEST_CASE(
    "modes: inline and thread run in the daemon, fork in a new process per call, service in one long-lived process") {
    Vm &vm = vm_with_math();
    auto client = connect(vm[0]);
    struct Way {
        const char *name;
        std::size_t daemon;
        hlib::Transport transport;
    };
    for (Way way : {Way{"unix, local", 0, hlib::Transport::tcp}, Way{"tcp, remote", 1, hlib::Transport::tcp},
                    Way{"udp, remote", 2, hlib::Transport::udp}}) {
        CAPTURE(way.name);
        Daemon &d = vm[way.daemon];
        auto pid = ref_on(client, d.id(), "pid");
        auto call_pid = [&](harness_mode mode) {
            return value_of(client.call<std::int64_t>(pid, opts(way.transport, mode)));
        };
        CHECK(call_pid(HARNESS_MODE_INLINE) == d.pid());
        CHECK(call_pid(HARNESS_MODE_THREAD) == d.pid());
        CHECK(call_pid(HARNESS_MODE_DEFAULT) == d.pid());  // pid's default mode is inline

        auto fork1 = call_pid(HARNESS_MODE_FORK);
        auto fork2 = call_pid(HARNESS_MODE_FORK);
        CHECK(fork1 != d.pid());
        CHECK(fork2 != d.pid());
        CHECK(fork1 != fork2);  // a new process per call

        auto service1 = call_pid(HARNESS_MODE_SERVICE);
        CHECK(service1 != d.pid());
        CHECK(service1 != fork1);
        for (int i = 0; i < 3; ++i) CHECK(call_pid(HARNESS_MODE_SERVICE) == service1);  // the same process each time
        CHECK(process_alive(static_cast<pid_t>(service1)));

        // Arguments and results cross every mode intact.
        auto add = ref_on(client, d.id(), "add");
        for (auto mode : {HARNESS_MODE_INLINE, HARNESS_MODE_THREAD, HARNESS_MODE_FORK, HARNESS_MODE_SERVICE}) {
            CAPTURE(static_cast<int>(mode));
            CHECK(value_of(client.call<std::int64_t>(add, opts(way.transport, mode), std::int64_t{1} << 40,
                                                     std::int64_t{5})) == (std::int64_t{1} << 40) + 5);
        }
    }
}

TEST_CASE("PACKED sum in every mode and over every transport") {
    Vm &vm = vm_with_math();
    auto client = connect(vm[0]);
    Packer args;
    for (std::int64_t v : {1, 2, 3, 4, -20}) args.i64(v);
    for (std::size_t i = 0; i < 3; ++i) {
        auto sum = ref_on(client, vm[i].id(), "sum");
        CHECK(sum.function.convention == HARNESS_CALL_PACKED);
        for (auto transport : {hlib::Transport::tcp, hlib::Transport::udp}) {
            for (auto mode : {HARNESS_MODE_INLINE, HARNESS_MODE_THREAD, HARNESS_MODE_FORK, HARNESS_MODE_SERVICE}) {
                CAPTURE(i);
                CAPTURE(static_cast<int>(transport));
                CAPTURE(static_cast<int>(mode));
                auto reply = value_of(client.call_packed(sum, args.view(), opts(transport, mode)));
                Unpacker u(reply);
                std::int64_t total = 0, count = 0;
                CHECK((u.i64(total) && u.i64(count) && u.done()));
                CHECK(total == -10);
                CHECK(count == 5);
            }
        }
    }
}

TEST_CASE("RAW raw_echo speaks its own protocol on the Unix and TCP connection, in thread, inline and fork mode") {
    Vm &vm = vm_with_math();
    auto key = read_key(vm.key_file);
    std::string payload = "raw bytes \x01\x02 and more";
    payload += std::string(70000, 'r');  // more than one socket buffer's worth on the way back
    for (int way = 0; way < 3; ++way) {
        CAPTURE(way);
        auto deadline = hlib::deadline_in(5s);
        auto conn = way == 0 ? hlib::Connection::open_unix(vm[0].unix_socket(), key, deadline)
            : way == 1       ? hlib::Connection::open_tcp(vm[0].tcp(), key, deadline)
                             : hlib::Connection::open_tcp(vm[2].tcp(), key, deadline);
        REQUIRE_MESSAGE(conn.ok(), (conn ? "" : describe(conn.error())));
        hlib::Daemon daemon(std::move(conn.value()));
        for (auto mode : {HARNESS_MODE_DEFAULT, HARNESS_MODE_INLINE, HARNESS_MODE_FORK}) {
            CAPTURE(static_cast<int>(mode));
            std::string echoed;
            auto r = daemon.call_raw(
                kMath, "raw_echo", mode, [&](int fd) { return echo_raw(fd, payload, &echoed); }, hlib::deadline_in(5s));
            REQUIRE_MESSAGE(r.ok(), (r ? "" : describe(r.error())));
            CHECK(echoed == payload);
        }
        // The connection is back in step with the daemon afterwards.
        CHECK(daemon.ping(hlib::deadline_in(3s)).ok());
    }
}

TEST_CASE("RAW calls are refused over UDP and AUTO calls refuse a RAW function, with a clear error") {
    Vm &vm = vm_with_math();
    auto client = connect(vm[0]);
    auto raw = ref_on(client, vm[1].id(), "raw_echo");
    auto r = client.call_packed(raw, {}, opts(hlib::Transport::udp));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_NOT_SUPPORTED);
    auto t = client.call<std::int64_t>(raw, opts(hlib::Transport::tcp));
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().status == HARNESS_ERR_TYPE_MISMATCH);
}

TEST_CASE("call_async: one future per daemon, each answered by its own daemon") {
    Vm &vm = vm_with_math();
    auto client = connect(vm[0]);
    auto refs = value_of(client.get_functions(kMath, "pid"));
    REQUIRE(refs.size() == 3);
    for (auto transport : {hlib::Transport::tcp, hlib::Transport::udp}) {
        CAPTURE(static_cast<int>(transport));
        std::vector<std::pair<std::string, std::future<Result<std::int64_t>>>> futures;
        for (const auto &ref : refs)
            futures.emplace_back(ref.member_id,
                                 client.call_async<std::int64_t>(ref, opts(transport, HARNESS_MODE_INLINE)));
        for (auto &[id, f] : futures) {
            CAPTURE(id);
            REQUIRE(f.wait_for(10s) == std::future_status::ready);
            CHECK(value_of(f.get()) == daemon_with_id(vm, id).pid());
        }
    }
    auto echo = ref_on(client, vm[2].id(), "echo");
    auto f = client.call_async<std::string>(echo, opts(hlib::Transport::tcp), std::string("async"));
    REQUIRE(f.wait_for(10s) == std::future_status::ready);
    CHECK(value_of(f.get()) == "async");
}

TEST_CASE("call_parallel gathers one result per daemon, and the calls really run at the same time") {
    Vm &vm = vm_with_math();
    auto client = connect(vm[0]);
    for (auto transport : {hlib::Transport::tcp, hlib::Transport::udp}) {
        CAPTURE(static_cast<int>(transport));
        auto refs = value_of(client.get_functions(kMath, "pid"));
        auto results = client.call_parallel<std::int64_t>(refs, opts(transport, HARNESS_MODE_INLINE));
        REQUIRE(results.size() == 3);
        std::set<std::string> ids;
        for (const auto &r : results) {
            CAPTURE(r.member_id);
            CHECK(value_of(r.result) == daemon_with_id(vm, r.member_id).pid());
            ids.insert(r.member_id);
        }
        CHECK(ids.size() == 3);

        auto adds = value_of(client.get_functions(kMath, "add"));
        for (const auto &r :
             client.call_parallel<std::int64_t>(adds, opts(transport), std::int64_t{20}, std::int64_t{22}))
            CHECK(value_of(r.result) == 42);

        // sleep_ms runs in a thread of each daemon; three 400 ms sleeps in
        // parallel take about 400 ms, one after the other 1200 ms.
        auto sleeps = value_of(client.get_functions(kMath, "sleep_ms"));
        REQUIRE(sleeps.size() == 3);
        auto t0 = Clock::now();
        auto slept = client.call_parallel<std::int64_t>(sleeps, opts(transport), std::int64_t{400});
        auto elapsed = Clock::now() - t0;
        for (const auto &r : slept) CHECK(value_of(r.result) == 400);
        CHECK(elapsed >= 400ms);
        CHECK(elapsed < 1000ms);
    }
}

TEST_CASE("a plugin function's failure comes back as that call's error, and the daemon carries on") {
    Vm &vm = vm_with_math();
    auto client = connect(vm[0]);
    for (auto mode : {HARNESS_MODE_INLINE, HARNESS_MODE_THREAD, HARNESS_MODE_FORK, HARNESS_MODE_SERVICE}) {
        CAPTURE(static_cast<int>(mode));
        auto fail = ref_on(client, vm[1].id(), "fail");
        auto r = client.call<std::int64_t>(fail, opts(hlib::Transport::tcp, mode), "deliberate failure");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().status == HARNESS_ERR_PLUGIN_FAILED);
        CHECK(r.error().message.find("deliberate failure") != std::string::npos);
    }
    auto add = ref_on(client, vm[1].id(), "add");
    CHECK(value_of(client.call<std::int64_t>(add, opts(hlib::Transport::tcp), std::int64_t{1}, std::int64_t{1})) == 2);
}
