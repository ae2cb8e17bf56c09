// VirtualMachine against five fake daemons: A (local), B, C answer after
// 300 ms, D is declared failed by the VM, E is alive but never answers a CALL.
// Parallel work must take the time of the slowest daemon, not the sum, and
// every daemon gets a result or an error by the deadline.
#include "fake_daemon.hpp"

#include <harness/hlib/hlib.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <map>

#include <sys/stat.h>

using namespace harness;
using namespace harness::hlib;
using namespace std::chrono_literals;
using fake::ms_since;

namespace {

struct Cluster {
    std::shared_ptr<Bytes> members = std::make_shared<Bytes>();
    std::vector<std::unique_ptr<fake::Daemon>> daemons;
    std::filesystem::path dir;
    std::filesystem::path key_file;
    Endpoint dead{"127.0.0.1", fake::closed_port()};

    static fake::Reply answer(std::shared_ptr<Bytes> members, const std::string &self, std::uint8_t type,
                              std::span<const std::uint8_t> body) {
        using T = protocol::Type;
        switch (static_cast<T>(type)) {
        case T::members: return {.body = *members};
        case T::loaded: {
            Packer p;
            p.u64(1).str("ex").str("math").str("1.0").i32(0).i32(0).u64(2);
            p.str("add").i32(HARNESS_CALL_AUTO).i32(HARNESS_MODE_INLINE).str("i64(i64,i64)");
            p.str("who").i32(HARNESS_CALL_PACKED).i32(HARNESS_MODE_INLINE).str("");
            return {.body = p.take()};
        }
        case T::locate: {
            Packer p;
            p.u64(4).str("A").str("B").str("C").str("D");
            return {.body = p.take()};
        }
        case T::load: {
            Packer p;
            p.str("1.0");
            return {.body = p.take()};
        }
        case T::call: {
            if (self == "E") return {.drop = true};
            Unpacker u(body);
            std::string pkg, comp, fn;
            std::int32_t mode = 0, conv = 0;
            std::span<const std::uint8_t> args;
            if (!u.str(pkg) || !u.str(comp) || !u.str(fn) || !u.i32(mode) || !u.i32(conv) || !u.bytes(args))
                return {.status = HARNESS_ERR_PROTOCOL, .message = "bad CALL"};
            Packer result;
            if (fn == "add") {
                Unpacker a(args);
                std::int64_t x = 0, y = 0;
                if (conv != HARNESS_CALL_AUTO || !a.i64(x) || !a.i64(y))
                    return {.status = HARNESS_ERR_TYPE_MISMATCH, .message = "add is i64(i64,i64)"};
                result.i64(x + y);
            } else {
                result.str(self);
            }
            Packer reply;
            reply.bytes(result.view());
            return {.body = reply.take(), .delay = 300ms};
        }
        default: return {.status = HARNESS_ERR_NOT_SUPPORTED, .message = "not in this fake"};
        }
    }

    Cluster() {
        for (const char *id : {"A", "B", "C", "E"}) {
            fake::Daemon::Options o;
            o.id = id;
            auto m = members;
            std::string self = id;
            daemons.push_back(std::make_unique<fake::Daemon>(
                o, [m, self](std::uint8_t t, std::span<const std::uint8_t> b) { return answer(m, self, t, b); }));
        }
        Packer p;
        p.u64(5);
        auto add = [&](const std::string &id, Endpoint e, int state) {
            p.str(id).str(e.to_string()).str(e.to_string()).i32(state).i64(state ? 12000 : 5);
        };
        add("A", daemons[0]->endpoint(), HARNESS_MEMBER_ALIVE);
        add("B", daemons[1]->endpoint(), HARNESS_MEMBER_ALIVE);
        add("C", daemons[2]->endpoint(), HARNESS_MEMBER_ALIVE);
        add("D", dead, HARNESS_MEMBER_FAILED);
        add("E", daemons[3]->endpoint(), HARNESS_MEMBER_ALIVE);
        *members = p.take();

        dir = std::filesystem::temp_directory_path() / ("hlib-vm-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        key_file = dir / "vm.key";
        std::ofstream(key_file) << to_hex(fake::test_key().bytes) << "\n";
        ::chmod(key_file.c_str(), 0600);
    }
    ~Cluster() { std::filesystem::remove_all(dir); }

    VirtualMachine connect() {
        ConnectOptions o;
        o.root = dir;
        o.key_file = key_file;
        o.hcore = daemons[0]->endpoint();
        o.timeout = 2s;
        auto vm = VirtualMachine::connect(o);
        REQUIRE_MESSAGE(vm.ok(), vm.error().describe());
        return std::move(*vm);
    }

    int calls() const {
        int n = 0;
        for (const auto &d : daemons) n += d->requests(static_cast<std::uint8_t>(protocol::Type::call));
        return n;
    }
};

std::map<std::string, const FunctionRef *> by_member(const std::vector<FunctionRef> &refs) {
    std::map<std::string, const FunctionRef *> m;
    for (const auto &r : refs) m[r.member_id] = &r;
    return m;
}

}  // namespace

TEST_CASE("membership, references and typed calls") {
    Cluster cluster;
    auto vm = cluster.connect();
    CHECK(vm.local_id() == "A");

    auto members = vm.members();
    REQUIRE(members.ok());
    REQUIRE(members->size() == 5);
    CHECK_FALSE((*members)[3].alive);

    auto add = vm.get_function({"ex", "math"}, "add");
    REQUIRE_MESSAGE(add.ok(), add.error().describe());
    CHECK(add->member_id == "A");
    CHECK(add->function.signature == "i64(i64,i64)");
    CHECK(add->tcp == cluster.daemons[0]->endpoint());

    CallOptions o;
    auto sum = vm.call<std::int64_t>(*add, o, std::int64_t{40}, std::int64_t{2});
    REQUIRE_MESSAGE(sum.ok(), sum.error().describe());
    CHECK(*sum == 42);

    // Mistyped: refused before anything is sent.
    int before = cluster.calls();
    auto wrong = vm.call<std::int64_t>(*add, o, std::int32_t{1}, std::int32_t{2});
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().status == HARNESS_ERR_TYPE_MISMATCH);
    auto wrong_result = vm.call<std::string>(*add, o, std::int64_t{1}, std::int64_t{2});
    CHECK(wrong_result.error().status == HARNESS_ERR_TYPE_MISMATCH);
    auto who = vm.get_function({"ex", "math"}, "who");
    REQUIRE(who.ok());
    CHECK(vm.call<std::string>(*who, o).error().status == HARNESS_ERR_TYPE_MISMATCH);  // PACKED, not AUTO
    CHECK(cluster.calls() == before);

    auto missing = vm.get_function({"ex", "math"}, "nope");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().status == HARNESS_ERR_NOT_FOUND);

    auto future = vm.call_async<std::int64_t>(*add, o, std::int64_t{1}, std::int64_t{2});
    auto async_sum = future.get();
    REQUIRE_MESSAGE(async_sum.ok(), async_sum.error().describe());
    CHECK(*async_sum == 3);
}

TEST_CASE("parallel calls take the slowest daemon's time; failed and mute daemons get errors by the deadline") {
    Cluster cluster;
    auto vm = cluster.connect();
    auto refs = vm.get_functions({"ex", "math"}, "add");
    REQUIRE_MESSAGE(refs.ok(), refs.error().describe());
    auto m = by_member(*refs);
    CHECK(m.size() == 5);  // A B C E answer LOADED; D comes from LOCATE
    REQUIRE(m.count("D"));

    std::vector<FunctionRef> healthy{*m["A"], *m["B"], *m["C"]};
    for (auto transport : {Transport::tcp, Transport::udp}) {
        CAPTURE(static_cast<int>(transport));
        CallOptions o;
        o.transport = transport;
        auto start = Clock::now();
        auto results = vm.call_parallel<std::int64_t>(healthy, o, std::int64_t{2}, std::int64_t{3});
        double took = ms_since(start);
        REQUIRE(results.size() == 3);
        for (const auto &r : results) {
            REQUIRE_MESSAGE(r.result.ok(),
                            (r.result.ok() ? std::string() : r.member_id + ": " + r.result.error().describe()));
            CHECK(*r.result == 5);
        }
        CHECK(took >= 290);
        CHECK(took < 800);  // three 300 ms daemons in sequence would be 900 ms
    }

    CallOptions o;
    o.timeout = 700ms;
    auto start = Clock::now();
    auto results = vm.call_parallel<std::int64_t>(*refs, o, std::int64_t{2}, std::int64_t{3});
    double took = ms_since(start);
    std::map<std::string, Error> errors;
    for (const auto &r : results) {
        if (r.result)
            CHECK(*r.result == 5);
        else
            errors[r.member_id] = r.result.error();
    }
    REQUIRE(errors.size() == 2);
    CHECK(errors["D"].status == HARNESS_ERR_MEMBER_FAILED);
    CHECK(errors["E"].status == HARNESS_ERR_TIMEOUT);
    CHECK(took >= 690);
    CHECK(took < 1500);
}

TEST_CASE("a daemon killed mid-call is an error for its part only") {
    Cluster cluster;
    auto vm = cluster.connect();
    auto refs = vm.get_functions({"ex", "math"}, "who");
    REQUIRE(refs.ok());
    auto m = by_member(*refs);
    std::vector<FunctionRef> some{*m["A"], *m["B"], *m["C"]};
    std::thread killer([&] {
        std::this_thread::sleep_for(100ms);
        cluster.daemons[1]->stop();  // B
    });
    CallOptions o;
    o.timeout = 3s;
    auto start = Clock::now();
    auto results = vm.call_packed_parallel(some, {}, o);
    killer.join();
    CHECK(ms_since(start) < 2000);
    REQUIRE(results.size() == 3);
    CHECK(results[0].result.ok());
    REQUIRE_FALSE(results[1].result.ok());
    CHECK(results[1].result.error().status == HARNESS_ERR_UNREACHABLE);
    REQUIRE(results[2].result.ok());
    Unpacker u(*results[2].result);
    std::string self;
    CHECK(u.str(self));
    CHECK(self == "C");
}

TEST_CASE("load placements and loaded_everywhere") {
    Cluster cluster;
    auto vm = cluster.connect();
    auto local = vm.load({"ex", "math"}, {});
    REQUIRE(local.size() == 1);
    CHECK(local[0].member_id == "A");
    REQUIRE(local[0].result.ok());
    CHECK(*local[0].result == "1.0");

    auto all = vm.load({"ex", "math"}, {Placement::Kind::all, {}});
    std::vector<std::string> ids;
    for (const auto &r : all) {
        ids.push_back(r.member_id);
        CHECK(r.result.ok());
    }
    CHECK(ids == std::vector<std::string>{"A", "B", "C", "E"});

    auto listed = vm.load({"ex", "math"}, {Placement::Kind::list, {"C", "D", "Z"}});
    REQUIRE(listed.size() == 3);
    std::map<std::string, int> status;
    for (const auto &r : listed) status[r.member_id] = r.result ? 0 : r.result.error().status;
    CHECK(status["C"] == 0);
    CHECK(status["D"] == HARNESS_ERR_MEMBER_FAILED);
    CHECK(status["Z"] == HARNESS_ERR_NOT_FOUND);

    auto single = vm.load({"ex", "math"}, {Placement::Kind::single_instance, {}});
    REQUIRE(single.size() == 1);
    CHECK(single[0].member_id == "A");

    auto everywhere = vm.loaded_everywhere();
    REQUIRE(everywhere.size() == 5);
    for (const auto &d : everywhere) {
        if (d.member_id == "D") {
            REQUIRE_FALSE(d.result.ok());
            CHECK(d.result.error().status == HARNESS_ERR_MEMBER_FAILED);
        } else {
            REQUIRE(d.result.ok());
            CHECK(d.result->size() == 1);
        }
    }
}
