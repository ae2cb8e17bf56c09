// Bad input, one case per test, against one real daemon (--max-message 4096,
// examples/math preloaded). Malformed frames are written by hand on raw
// sockets (protocol::encode_header), so nothing in Hlib can tidy them up.
// Each case checks what the sender gets back (an error reply with the right
// status, or a closed connection) and then that the daemon is still alive and
// serving a well-behaved client.
#include "it_support.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

using namespace harness;
using namespace harness::it;
using protocol::Header;
using protocol::Type;

namespace {

constexpr std::uint32_t kMaxMessage = 4096;

Daemon &daemon() {
    static std::unique_ptr<Daemon> d = [] {
        test::DaemonOptions o;
        o.vm = "badinput";
        o.extra_args = {"--max-message", std::to_string(kMaxMessage), "--load", "examples/math"};
        return Daemon::start(o);
    }();
    return *d;
}

const VmKey &key() {
    static VmKey k = read_key(daemon().key_file());
    return k;
}

// The daemon still runs and answers a good client: ping and an AUTO call over
// TCP, the Unix socket and UDP.
void check_still_serving() {
    Daemon &d = daemon();
    REQUIRE_MESSAGE(d.running(), "hcored died; stderr:\n" << d.stderr_tail());
    for (auto transport : {hlib::Transport::unix_socket, hlib::Transport::tcp, hlib::Transport::udp}) {
        CAPTURE(static_cast<int>(transport));
        auto deadline = hlib::deadline_in(5s);
        auto conn = transport == hlib::Transport::unix_socket
            ? hlib::Connection::open_unix(d.unix_socket(), key(), deadline)
            : transport == hlib::Transport::tcp ? hlib::Connection::open_tcp(d.tcp(), key(), deadline)
                                                : hlib::Connection::open_udp(d.udp(), key(), deadline);
        REQUIRE_MESSAGE(conn.ok(), (conn ? "" : describe(conn.error())));
        hlib::Daemon good(std::move(conn.value()));
        auto pinged = good.ping(deadline);
        CHECK_MESSAGE(pinged.ok(), (pinged ? "" : describe(pinged.error())));
        Packer args;
        args.i64(2).i64(3);
        auto r = good.call(kMath, "add", args.view(), HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, deadline);
        REQUIRE_MESSAGE(r.ok(), (r ? "" : describe(r.error())));
        Unpacker u(*r);
        std::int64_t sum = 0;
        CHECK((u.i64(sum) && u.done() && sum == 5));
    }
}

RawClient authenticated_client() {
    auto c = RawClient::tcp(daemon().tcp());
    REQUIRE_MESSAGE(c.authenticate(key()), c.last_error());
    return c;
}

// Sends one request frame and returns the reply (fails the test if none).
Frame request(RawClient &c, Type type, std::uint64_t id, std::span<const std::uint8_t> body) {
    REQUIRE(c.send_frame(request_header(type, id, body.size()), body));
    auto reply = c.read_frame();
    REQUIRE_MESSAGE(reply.has_value(), c.last_error());
    CHECK(reply->header.is_reply());
    CHECK(reply->header.request_id == id);
    return *reply;
}

Frame call(RawClient &c, std::uint64_t id, std::string_view fn, harness_convention conv, const Packer &args,
           const ComponentName &component = kMath, harness_mode mode = HARNESS_MODE_INLINE) {
    return request(c, Type::call, id, call_body(component, fn, mode, conv, args.view()));
}

bool log_mentions(const std::string &text) {
    return test::wait_until([&] { return daemon().stderr_text().find(text) != std::string::npos; }, 2s);
}

}  // namespace

TEST_CASE("wrong VM key: the connection is refused with an authentication error and logged") {
    VmKey wrong = key();
    wrong.bytes[0] ^= 0x5a;
    auto deadline = hlib::deadline_in(5s);
    auto tcp = hlib::Connection::open_tcp(daemon().tcp(), wrong, deadline);
    REQUIRE_FALSE(tcp.ok());
    CHECK(tcp.error().status == HARNESS_ERR_AUTH);
    auto unix_conn = hlib::Connection::open_unix(daemon().unix_socket(), wrong, deadline);
    REQUIRE_FALSE(unix_conn.ok());
    CHECK(unix_conn.error().status == HARNESS_ERR_AUTH);

    // By hand: the refusal is an AUTH-status reply, then the close.
    auto raw = RawClient::tcp(daemon().tcp());
    CHECK_FALSE(raw.authenticate(wrong));
    CHECK(raw.last_error().find("wrong VM key") != std::string::npos);
    CHECK(raw.wait_closed());
    CHECK(log_mentions("authentication failed"));

    // UDP with the wrong key: dropped, so the request only times out.
    auto udp = hlib::Connection::open_udp(daemon().udp(), wrong, deadline);
    REQUIRE(udp.ok());
    auto r = udp->request(Type::ping, {}, hlib::deadline_in(600ms));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_TIMEOUT);
    check_still_serving();
}

TEST_CASE("missing authentication: a request before AUTH is refused and the connection closed") {
    for (Type type : {Type::ping, Type::call, Type::members, Type::halt}) {
        CAPTURE(protocol::type_name(static_cast<std::uint8_t>(type)));
        auto c = RawClient::tcp(daemon().tcp());
        auto hello = c.read_frame();
        REQUIRE(hello.has_value());
        CHECK(hello->header.type == static_cast<std::uint8_t>(Type::hello));
        Packer body;
        if (type == Type::halt) body.boolean(true);  // would stop the whole VM if it got through
        REQUIRE(c.send_frame(request_header(type, 7, body.size()), body.view()));
        auto reply = c.read_frame();
        REQUIRE_MESSAGE(reply.has_value(), c.last_error());
        CHECK(reply->header.status == HARNESS_ERR_AUTH);
        CHECK(reply->header.request_id == 7);
        CHECK(c.wait_closed());
    }
    // The same over the Unix socket: local callers prove the key too.
    auto u = RawClient::unix_socket(daemon().unix_socket());
    REQUIRE(u.read_frame().has_value());
    REQUIRE(u.send_frame(request_header(Type::ping, 8)));
    auto reply = u.read_frame();
    REQUIRE(reply.has_value());
    CHECK(reply->header.status == HARNESS_ERR_AUTH);
    CHECK(u.wait_closed());
    check_still_serving();
}

TEST_CASE("malformed AUTH (short nonce, missing fields) is refused and the connection closed") {
    auto c = RawClient::tcp(daemon().tcp());
    REQUIRE(c.read_frame().has_value());
    Packer body;
    body.bytes(Bytes(5, 1)).bytes(Bytes(32, 2)).str("x");  // a 5-byte nonce
    REQUIRE(c.send_frame(request_header(Type::auth, 1, body.size()), body.view()));
    auto reply = c.read_frame();
    REQUIRE(reply.has_value());
    CHECK(reply->header.status == HARNESS_ERR_PROTOCOL);
    CHECK(c.wait_closed());
    check_still_serving();
}

TEST_CASE("a frame larger than --max-message is refused with TOO_LARGE and the connection closed") {
    // At the limit is fine…
    {
        auto c = authenticated_client();
        Packer args;
        args.str(std::string(kMaxMessage - 200, 'a'));
        auto body = call_body(kMath, "echo", HARNESS_MODE_INLINE, HARNESS_CALL_AUTO, args.view());
        REQUIRE(body.size() <= kMaxMessage);
        auto reply = request(c, Type::call, 1, body);
        CHECK(reply.header.status == HARNESS_OK);
    }
    // …one byte over is not, whether the body follows or not.
    for (bool send_body : {false, true}) {
        CAPTURE(send_body);
        auto c = authenticated_client();
        Bytes body(kMaxMessage + 1, 0x41);
        REQUIRE(c.send_frame(request_header(Type::call, 2, body.size()), send_body ? body : Bytes{}));
        auto reply = c.read_frame();
        REQUIRE_MESSAGE(reply.has_value(), c.last_error());
        CHECK(reply->header.status == HARNESS_ERR_TOO_LARGE);
        CHECK(reply->message().find(std::to_string(kMaxMessage)) != std::string::npos);
        CHECK(c.wait_closed());
    }
    // A huge announced length before authentication must not make the daemon allocate it.
    auto early = RawClient::tcp(daemon().tcp());
    REQUIRE(early.read_frame().has_value());
    REQUIRE(early.send_frame(request_header(Type::auth, 3, 0xFFFFFFF0u)));
    auto reply = early.read_frame();
    REQUIRE(reply.has_value());
    CHECK(reply->header.status == HARNESS_ERR_TOO_LARGE);
    CHECK(early.wait_closed());
    check_still_serving();
}

TEST_CASE("truncated frames: a partial header or body, then close or silence, hurt nobody else") {
    Header h = request_header(Type::ping, 1);
    auto bytes = frame_bytes(h);
    {
        auto c = authenticated_client();
        REQUIRE(c.send_all(std::span(bytes).first(10)));  // 10 of 24 header bytes
        c.close();
    }
    {
        auto c = authenticated_client();
        Packer args;
        args.i64(1).i64(2);
        auto body = call_body(kMath, "add", HARNESS_MODE_INLINE, HARNESS_CALL_AUTO, args.view());
        auto frame = frame_bytes(request_header(Type::call, 2, body.size()), body);
        REQUIRE(c.send_all(std::span(frame).first(frame.size() - 5)));  // the body cut short
        c.close();
    }
    {
        auto c = RawClient::tcp(daemon().tcp());
        REQUIRE(c.read_frame().has_value());
        REQUIRE(c.send_all(std::span(bytes).first(3)));  // before authentication
        c.close();
    }
    // A client that stops mid-frame and stays connected must not stall the
    // daemon for everyone else.
    auto stalled = authenticated_client();
    REQUIRE(stalled.send_all(std::span(bytes).first(20)));
    check_still_serving();
    // Finishing the frame later still works: the stream was only waiting.
    REQUIRE(stalled.send_all(std::span(bytes).subspan(20)));
    auto reply = stalled.read_frame();
    REQUIRE_MESSAGE(reply.has_value(), stalled.last_error());
    CHECK(reply->header.status == HARNESS_OK);
    CHECK(reply->header.request_id == 1);
}

TEST_CASE("garbage bytes get a protocol error and a closed connection, before or after authentication") {
    Bytes garbage;
    std::uint32_t x = 12345;
    for (int i = 0; i < 200; ++i) {
        x = x * 1103515245u + 12345u;
        garbage.push_back(static_cast<std::uint8_t>(x >> 16));
    }
    for (bool authenticated : {false, true}) {
        CAPTURE(authenticated);
        auto c = authenticated ? authenticated_client() : RawClient::tcp(daemon().tcp());
        if (!authenticated) REQUIRE(c.read_frame().has_value());
        REQUIRE(c.send_all(garbage));
        auto reply = c.read_frame();
        REQUIRE_MESSAGE(reply.has_value(), c.last_error());
        CHECK(reply->header.status == HARNESS_ERR_PROTOCOL);
        CHECK(c.wait_closed());
    }
    // HTTP at a HARNESS port, a classic.
    auto c = RawClient::tcp(daemon().tcp());
    std::string http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    REQUIRE(c.send_all({reinterpret_cast<const std::uint8_t *>(http.data()), http.size()}));
    CHECK(c.wait_closed());
    check_still_serving();
}

TEST_CASE("bad magic and bad protocol version are refused with a protocol error") {
    auto bytes = frame_bytes(request_header(Type::ping, 9));
    for (int which = 0; which < 2; ++which) {
        CAPTURE(which);
        auto c = authenticated_client();
        auto bad = bytes;
        if (which == 0)
            bad[0] ^= 0xff;  // magic
        else
            bad[4] = protocol::kVersion + 1;
        REQUIRE(c.send_all(bad));
        auto reply = c.read_frame();
        REQUIRE_MESSAGE(reply.has_value(), c.last_error());
        CHECK(reply->header.status == HARNESS_ERR_PROTOCOL);
        CHECK(reply->message().find(which == 0 ? "magic" : "version") != std::string::npos);
        CHECK(c.wait_closed());
    }
    check_still_serving();
}

TEST_CASE("unknown and unexpected message types get a protocol error; the connection stays usable") {
    auto c = authenticated_client();
    std::uint64_t id = 100;
    for (std::uint8_t type :
         {std::uint8_t{99}, std::uint8_t{0}, std::uint8_t{255}, static_cast<std::uint8_t>(Type::hello),
          static_cast<std::uint8_t>(Type::auth), static_cast<std::uint8_t>(Type::heartbeat)}) {
        CAPTURE(static_cast<int>(type));
        Header h = request_header(Type::ping, ++id);
        h.type = type;
        REQUIRE(c.send_frame(h));
        auto reply = c.read_frame();
        REQUIRE_MESSAGE(reply.has_value(), c.last_error());
        CHECK(reply->header.status == HARNESS_ERR_PROTOCOL);
        CHECK(reply->header.request_id == id);
    }
    // A frame flagged as a reply is not a request either.
    Header h = request_header(Type::ping, ++id);
    h.flags = protocol::kFlagReply;
    REQUIRE(c.send_frame(h));
    auto reply = c.read_frame();
    REQUIRE(reply.has_value());
    CHECK(reply->header.status == HARNESS_ERR_PROTOCOL);
    // Still in step: a good request on the same connection works.
    CHECK(request(c, Type::ping, ++id, {}).header.status == HARNESS_OK);
    check_still_serving();
}

TEST_CASE("a call of an unknown function is NOT_FOUND and names the function") {
    auto c = authenticated_client();
    Packer args;
    auto reply = call(c, 1, "no_such_function", HARNESS_CALL_AUTO, args);
    CHECK(reply.header.status == HARNESS_ERR_NOT_FOUND);
    CHECK(reply.message().find("no_such_function") != std::string::npos);
    check_still_serving();
}

TEST_CASE("a call of a component that is not loaded is NOT_FOUND and says so") {
    auto c = authenticated_client();
    Packer args;
    args.i64(1);
    for (const ComponentName &name : {ComponentName{"examples", "dependent"}, ComponentName{"nopkg", "nocomp"}}) {
        CAPTURE(name.to_string());
        auto reply = call(c, 1, "twice", HARNESS_CALL_AUTO, args, name);
        CHECK(reply.header.status == HARNESS_ERR_NOT_FOUND);
        CHECK(reply.message().find(name.to_string()) != std::string::npos);
        CHECK(reply.message().find("not loaded") != std::string::npos);
    }
    // Names that could escape lib/ are refused outright.
    auto reply = call(c, 2, "twice", HARNESS_CALL_AUTO, args, ComponentName{"..", "etc"});
    CHECK(reply.header.status == HARNESS_ERR_INVALID_ARGUMENT);
    check_still_serving();
}

TEST_CASE("wrong argument types to AUTO add are TYPE_MISMATCH, checked by the daemon and by Hlib") {
    auto c = authenticated_client();
    struct Case {
        const char *what;
        std::function<void(Packer &)> pack;
    };
    for (const Case &k :
         {Case{"two strings", [](Packer &p) { p.str("1").str("2"); }},
          Case{"i32 instead of i64", [](Packer &p) { p.i32(1).i32(2); }},
          Case{"f64 and i64", [](Packer &p) { p.f64(1.0).i64(2); }}, Case{"one argument", [](Packer &p) { p.i64(1); }},
          Case{"three arguments", [](Packer &p) { p.i64(1).i64(2).i64(3); }}, Case{"no arguments", [](Packer &) {}}}) {
        CAPTURE(k.what);
        Packer args;
        k.pack(args);
        auto reply = call(c, 1, "add", HARNESS_CALL_AUTO, args);
        CHECK(reply.header.status == HARNESS_ERR_TYPE_MISMATCH);
        CHECK(reply.message().find("add") != std::string::npos);
    }
    // Hlib refuses a typed call that does not match the signature before sending.
    auto vm = connect(daemon());
    auto add = vm.get_function(kMath, "add");
    REQUIRE(add.ok());
    auto r = vm.call<std::int64_t>(*add, {}, std::string("1"), std::string("2"));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().status == HARNESS_ERR_TYPE_MISMATCH);
    auto wrong_result = vm.call<std::string>(*add, {}, std::int64_t{1}, std::int64_t{2});
    REQUIRE_FALSE(wrong_result.ok());
    CHECK(wrong_result.error().status == HARNESS_ERR_TYPE_MISMATCH);
    check_still_serving();
}

TEST_CASE("a call with the wrong calling convention is refused") {
    auto c = authenticated_client();
    Packer ints;
    ints.i64(1).i64(2);
    struct Case {
        const char *fn;
        harness_convention conv;
    };
    for (Case k : {Case{"add", HARNESS_CALL_PACKED}, Case{"add", HARNESS_CALL_RAW}, Case{"sum", HARNESS_CALL_AUTO},
                   Case{"raw_echo", HARNESS_CALL_PACKED}}) {
        CAPTURE(k.fn);
        CAPTURE(static_cast<int>(k.conv));
        auto reply = call(c, 1, k.fn, k.conv, ints);
        CHECK(reply.header.status == HARNESS_ERR_TYPE_MISMATCH);
        CHECK(reply.message().find("convention") != std::string::npos);
    }
    // An unknown convention number, and an unknown mode.
    auto reply = request(c, Type::call, 2,
                         call_body(kMath, "add", HARNESS_MODE_INLINE, static_cast<harness_convention>(7), ints.view()));
    CHECK(reply.header.status != HARNESS_OK);
    reply = request(c, Type::call, 3,
                    call_body(kMath, "add", static_cast<harness_mode>(42), HARNESS_CALL_AUTO, ints.view()));
    CHECK(reply.header.status == HARNESS_ERR_INVALID_ARGUMENT);
    check_still_serving();
}

TEST_CASE("malformed request bodies get a protocol error; the connection stays usable") {
    auto c = authenticated_client();
    Packer args;
    args.i64(1).i64(2);
    auto good = call_body(kMath, "add", HARNESS_MODE_INLINE, HARNESS_CALL_AUTO, args.view());
    std::uint64_t id = 1;
    struct Case {
        const char *what;
        Type type;
        Bytes body;
    };
    Packer extra;
    extra.str("examples").str("math").str("trailing");
    Packer wrong_tags;
    wrong_tags.i64(1).i64(2);
    Bytes bad_length = good;
    bad_length[1] = 0xff;  // the first string's length points past the end
    for (const Case &k :
         {Case{"CALL cut short", Type::call, Bytes(good.begin(), good.end() - 3)}, Case{"CALL empty", Type::call, {}},
          Case{"CALL with a string length past the end", Type::call, bad_length},
          Case{"CALL with extra bytes after it", Type::call,
               [&] {
                   auto b = good;
                   b.push_back(0);
                   return b;
               }()},
          Case{"LOAD with a trailing item", Type::load, extra.take()},
          Case{"LOAD of two integers", Type::load, wrong_tags.take()}, Case{"LOCATE empty", Type::locate, {}},
          Case{"HALT without its flag", Type::halt, {}}, Case{"JOIN of nonsense", Type::join, Bytes(40, 0x07)},
          Case{"CLAIM empty", Type::claim, {}}}) {
        CAPTURE(k.what);
        auto reply = request(c, k.type, ++id, k.body);
        CHECK(reply.header.status == HARNESS_ERR_PROTOCOL);
    }
    // Arguments that are malformed inside a well-formed CALL: the plugin's error.
    Bytes truncated_args = args.take();
    truncated_args.pop_back();
    auto reply =
        request(c, Type::call, ++id, call_body(kMath, "sum", HARNESS_MODE_INLINE, HARNESS_CALL_PACKED, truncated_args));
    CHECK(reply.header.status == HARNESS_ERR_INVALID_ARGUMENT);
    reply =
        request(c, Type::call, ++id, call_body(kMath, "add", HARNESS_MODE_INLINE, HARNESS_CALL_AUTO, truncated_args));
    CHECK(reply.header.status == HARNESS_ERR_PROTOCOL);
    CHECK(request(c, Type::ping, ++id, {}).header.status == HARNESS_OK);
    check_still_serving();
}

TEST_CASE("UDP: datagrams with a bad MAC, another key, no seal or a bad frame are dropped") {
    UdpClient udp(daemon().udp(), key());
    auto ping = udp.seal(request_header(Type::ping, 1000));
    auto flipped = ping;
    flipped.back() ^= 0x01;  // the MAC
    auto body_flipped = ping;
    body_flipped[8] ^= 0x01;  // the request id, under the MAC
    VmKey other = key();
    other.bytes[3] ^= 0x11;
    UdpSealer stranger(other);
    auto foreign = stranger.seal(frame_bytes(request_header(Type::ping, 1001)));
    UdpSealer sealer(key());
    auto bad_frame = sealer.seal(Bytes(30, 0xee));  // properly sealed garbage
    auto unsealed = frame_bytes(request_header(Type::ping, 1002));
    Bytes tiny(3, 0);

    for (const Bytes *d : {&flipped, &body_flipped, &foreign, &bad_frame, &unsealed, &tiny})
        REQUIRE(udp.send_datagram(*d));
    // The daemon handles datagrams in order on one thread: once the good ping
    // sent after them is answered, any answer to them would have come first.
    std::vector<Frame> earlier;
    REQUIRE(udp.ping(2000, &earlier));
    for (const auto &f : earlier) {
        CAPTURE(f.header.request_id);
        CHECK(f.header.request_id == 2000);  // only duplicates of our own answer
    }
    CHECK(log_mentions("dropped"));
    check_still_serving();
}

TEST_CASE("UDP: a replayed datagram is dropped, a retry with a fresh seal gets the remembered answer") {
    UdpClient udp(daemon().udp(), key());
    auto datagram = udp.seal(request_header(Type::ping, 3000));
    REQUIRE(udp.send_datagram(datagram));
    auto first = udp.receive();
    REQUIRE(first.has_value());
    CHECK(first->header.request_id == 3000);
    CHECK(first->header.status == HARNESS_OK);

    REQUIRE(udp.send_datagram(datagram));  // byte for byte the same: a replay
    REQUIRE(udp.send_datagram(datagram));
    std::vector<Frame> earlier;
    REQUIRE(udp.ping(3001, &earlier));
    for (const auto &f : earlier) CHECK(f.header.request_id == 3001);

    // A client's retry (same request id, new sequence number) is answered.
    REQUIRE(udp.send_datagram(udp.seal(request_header(Type::ping, 3000))));
    auto again = udp.receive();
    REQUIRE(again.has_value());
    CHECK(again->header.request_id == 3000);
    check_still_serving();
}

TEST_CASE("UDP: requests that need a stream are refused with NOT_SUPPORTED, unknown types with a protocol error") {
    UdpClient udp(daemon().udp(), key());
    Packer load;
    load.str("examples").str("math");
    REQUIRE(udp.send_datagram(udp.seal(request_header(Type::load, 4000, load.size()), load.view())));
    auto reply = udp.receive();
    REQUIRE(reply.has_value());
    CHECK(reply->header.request_id == 4000);
    CHECK(reply->header.status == HARNESS_ERR_NOT_SUPPORTED);

    Header unknown = request_header(Type::ping, 4001);
    unknown.type = 99;
    REQUIRE(udp.send_datagram(udp.seal(unknown)));
    reply = udp.receive();
    REQUIRE(reply.has_value());
    CHECK(reply->header.request_id == 4001);
    CHECK(reply->header.status == HARNESS_ERR_PROTOCOL);

    // A RAW function has no socket to talk on over UDP.
    auto raw = call_body(kMath, "raw_echo", HARNESS_MODE_INLINE, HARNESS_CALL_RAW, {});
    REQUIRE(udp.send_datagram(udp.seal(request_header(Type::call, 4002, raw.size()), raw)));
    reply = udp.receive();
    REQUIRE(reply.has_value());
    CHECK(reply->header.status == HARNESS_ERR_NOT_SUPPORTED);
    check_still_serving();
}

namespace {

// CPU time (user + system) of a process so far, from /proc/PID/stat.
std::chrono::milliseconds cpu_time(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    std::istringstream fields(line.substr(line.rfind(')') + 2));
    std::string field;
    long ticks = 0;
    for (int i = 3; fields >> field; ++i) {
        if (i == 14 || i == 15) ticks += std::stol(field);  // utime, stime
        if (i == 15) break;
    }
    return std::chrono::milliseconds(ticks * 1000 / ::sysconf(_SC_CLK_TCK));
}

}  // namespace

TEST_CASE(
    "connections that never authenticate cannot exhaust the daemon: out of descriptors it neither spins nor dies") {
    // hcored with only 64 file descriptors, through a wrapper that sets the limit.
    test::TempDir dir("hfd");
    auto wrapper = dir.path() / "hcored-64fds";
    {
        std::ofstream w(wrapper);
        w << "#!/bin/sh\nulimit -n 64 || exit 99\nexec '" << test::hcored_path().string() << "' \"$@\"\n";
    }
    std::filesystem::permissions(wrapper, std::filesystem::perms::owner_all);
    test::DaemonOptions o;
    o.vm = "fds";
    o.binary = wrapper;
    auto d = Daemon::start(o);
    auto k = read_key(d->key_file());

    std::vector<RawClient> idle;
    for (int i = 0; i < 80; ++i)
        idle.push_back(RawClient::tcp(d->tcp()));  // the kernel queues what hcored cannot accept
    // Give the daemon a second at its descriptor limit; it must not burn it.
    auto cpu_before = cpu_time(d->pid());
    auto t0 = Clock::now();
    while (Clock::now() - t0 < 1s) std::this_thread::sleep_for(50ms);
    auto cpu_used = cpu_time(d->pid()) - cpu_before;
    CHECK_MESSAGE(cpu_used < 300ms, "hcored used " << cpu_used.count() << " ms of CPU in 1 s while out of descriptors");
    REQUIRE(d->running());
    idle.clear();  // the idle clients go away…
    // …and a good client is served again.
    CHECK(test::wait_until(
        [&] {
            auto conn = hlib::Connection::open_tcp(d->tcp(), k, hlib::deadline_in(1s));
            return conn && hlib::Daemon(std::move(conn.value())).ping(hlib::deadline_in(1s)).ok();
        },
        5s));
    auto log = d->stderr_text();
    std::size_t lines = static_cast<std::size_t>(std::count(log.begin(), log.end(), '\n'));
    CHECK_MESSAGE(lines < 200, "hcored logged " << lines << " lines; tail:\n" << d->stderr_tail(1000));
}

TEST_CASE("UDP: a request over --max-message is refused too, with TOO_LARGE") {
    auto vm = connect(daemon());
    auto echo = vm.get_function(kMath, "echo");
    REQUIRE(echo.ok());
    hlib::CallOptions o;
    o.transport = hlib::Transport::udp;
    o.timeout = 2s;
    auto r = vm.call<std::string>(*echo, o, std::string(kMaxMessage + 1000, 'u'));
    REQUIRE_FALSE(r.ok());
    CHECK_MESSAGE(r.error().status == HARNESS_ERR_TOO_LARGE, describe(r.error()));
    check_still_serving();
}
