// vm/spawn_notify's limits and bad requests: each gets a clear error, the
// daemon keeps serving, memory per process stays bounded with a note when
// lines are dropped, and overlong lines are cut.
#include "spawn_support.hpp"

#include <harness/common/pack.hpp>

#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <string>

using namespace harness;
using namespace harness::spawn_test;

namespace {

// The error of a call that must fail, with its status checked.
Error expect_error(const Result<Bytes> &r, int status) {
    REQUIRE_FALSE(r.ok());
    CHECK_MESSAGE(r.error().status == status, r.error().describe());
    return r.error();
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("bad requests get clear errors and the daemon keeps serving") {
    auto d = start_daemon();
    auto c = client_of(*d);

    auto missing = c.spawn({{"/no/such/program"}, {}, "", "", ""});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().status == HARNESS_ERR_NOT_FOUND);
    CHECK(contains(missing.error().message, "/no/such/program"));

    auto not_on_path = c.spawn({{"no-such-program-xyz"}, {}, "", "", ""});
    REQUIRE_FALSE(not_on_path.ok());
    CHECK(contains(not_on_path.error().message, "no such program \"no-such-program-xyz\""));

    test::TempDir dir("spawn-limits");
    auto plain_file = dir.path() / "data.txt";
    std::ofstream(plain_file) << "not a program\n";
    auto not_exec = c.spawn({{plain_file.string()}, {}, "", "", ""});
    REQUIRE_FALSE(not_exec.ok());
    CHECK(contains(not_exec.error().message, "not executable"));

    auto bad_cwd = c.spawn({{"true"}, {}, "/no/such/dir", "", ""});
    REQUIRE_FALSE(bad_cwd.ok());
    CHECK(bad_cwd.error().status == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(contains(bad_cwd.error().message, "working directory \"/no/such/dir\""));

    auto file_cwd = c.spawn({{"true"}, {}, plain_file.string(), "", ""});
    REQUIRE_FALSE(file_cwd.ok());
    CHECK(contains(file_cwd.error().message, "not a directory"));

    auto no_argv = c.spawn({{}, {}, "", "", ""});
    REQUIRE_FALSE(no_argv.ok());
    CHECK(contains(no_argv.error().message, "argv is empty"));

    auto bad_env = c.spawn({{"true"}, {"NOEQUALS"}, "", "", ""});
    REQUIRE_FALSE(bad_env.ok());
    CHECK(contains(bad_env.error().message, "NAME=value"));

    auto nul = c.spawn({{"true", std::string("a\0b", 3)}, {}, "", "", ""});
    REQUIRE_FALSE(nul.ok());
    CHECK(contains(nul.error().message, "NUL"));

    auto unknown = c.status(987654);
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().status == HARNESS_ERR_NOT_FOUND);

    auto sleeper = c.spawn({{"sleep", "100"}, {}, "", "", ""});
    REQUIRE(sleeper.ok());
    auto bad_signal = c.signal(sleeper->handle, 999, false);
    REQUIRE_FALSE(bad_signal.ok());
    CHECK(contains(bad_signal.error().message, "no signal 999"));

    // Malformed argument buffers: truncated, mistyped, trailing garbage, a
    // count larger than what follows, a negative wait.
    expect_error(c.call("spawn", {}, 5s), HARNESS_ERR_INVALID_ARGUMENT);
    {
        Packer p;
        p.i64(3).str("true");
        auto e = expect_error(c.call("spawn", p.view(), 5s), HARNESS_ERR_INVALID_ARGUMENT);
        CHECK(contains(e.message, "argv[i]"));
    }
    {
        Packer p;
        p.i64(-1);
        auto e = expect_error(c.call("spawn", p.view(), 5s), HARNESS_ERR_INVALID_ARGUMENT);
        CHECK(contains(e.message, "argc"));
    }
    {
        Packer p;
        p.str("1").i32(9).boolean(false);
        expect_error(c.call("signal", p.view(), 5s), HARNESS_ERR_INVALID_ARGUMENT);
    }
    {
        Packer p;
        p.i64(sleeper->handle).i64(7);
        auto e = expect_error(c.call("status", p.view(), 5s), HARNESS_ERR_INVALID_ARGUMENT);
        CHECK(contains(e.message, "unexpected items"));
    }
    {
        Packer p;
        p.i64(0).i64(-5);
        auto e = expect_error(c.call("wait", p.view(), 5s), HARNESS_ERR_INVALID_ARGUMENT);
        CHECK(contains(e.message, "negative"));
    }
    {
        Bytes garbage{0xff, 0x00, 0x13, 0x37};
        expect_error(c.call("output", garbage, 5s), HARNESS_ERR_INVALID_ARGUMENT);
    }

    // Still serving, and the sleeper is still ours to kill.
    REQUIRE(c.signal(sleeper->handle, SIGKILL, true).ok());
    CHECK(wait_exit(c, sleeper->handle).signal == SIGKILL);
    auto fine = c.spawn(shell("echo ok"));
    REQUIRE(fine.ok());
    CHECK(collect_output(c, fine->handle).out == std::vector<std::string>{"ok"});
    CHECK(d->running());
}

TEST_CASE("too many processes: refused with BUSY until one ends") {
    auto d = start_daemon({"HARNESS_SPAWN_MAX_PROCS=2"});
    auto c = client_of(*d);
    auto a = c.spawn({{"sleep", "100"}, {}, "", "", ""});
    auto b = c.spawn({{"sleep", "100"}, {}, "", "", ""});
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    auto third = c.spawn({{"true"}, {}, "", "", ""});
    REQUIRE_FALSE(third.ok());
    CHECK(third.error().status == HARNESS_ERR_BUSY);
    CHECK(contains(third.error().message, "HARNESS_SPAWN_MAX_PROCS"));
    REQUIRE(c.signal(a->handle, SIGKILL, false).ok());
    wait_exit(c, a->handle);
    auto now = c.spawn({{"true"}, {}, "", "", ""});
    CHECK_MESSAGE(now.ok(), (now ? "" : now.error().describe()));
    REQUIRE(c.signal(b->handle, SIGKILL, false).ok());
}

TEST_CASE("output beyond the per-process bound is dropped oldest first, with a note") {
    // 2000 lines of 10 bytes ("line00001\n") against a 4000-byte bound.
    auto d = start_daemon({"HARNESS_SPAWN_MAX_OUTPUT_BYTES=4000"});
    auto c = client_of(*d);
    auto s = c.spawn(shell("i=1; while [ $i -le 2000 ]; do printf 'line%05d\\n' $i; i=$((i+1)); done"));
    REQUIRE(s.ok());
    wait_exit(c, s->handle);
    auto got = collect_output(c, s->handle);
    REQUIRE(got.err.size() == 1);
    CHECK(contains(got.err[0], "output lines dropped"));
    REQUIRE(!got.out.empty());
    CHECK(got.out.size() <= 450);
    CHECK(got.out.back() == "line02000");
    // What is kept is contiguous and ends at the last line.
    for (std::size_t i = 1; i < got.out.size(); ++i)
        CHECK(std::stoi(got.out[i].substr(4)) == std::stoi(got.out[i - 1].substr(4)) + 1);
}

TEST_CASE("an overlong line is delivered in 64 KiB pieces") {
    auto d = start_daemon();
    auto c = client_of(*d);
    // 150000 'x' then a newline, then "end".
    auto s = c.spawn(shell("head -c 150000 /dev/zero | tr '\\0' x; echo; echo end"));
    REQUIRE(s.ok());
    auto got = collect_output(c, s->handle);
    REQUIRE(got.out.size() == 4);
    CHECK(got.out[0].size() == 65536);
    CHECK(got.out[1].size() == 65536);
    CHECK(got.out[2].size() == 150000 - 2 * 65536);
    CHECK(got.out[3] == "end");
}

TEST_CASE("output after exit is bounded in time when a descendant keeps the pipe open") {
    auto d = start_daemon({"HARNESS_SPAWN_EXIT_DRAIN_MS=300"});
    auto c = client_of(*d);
    // The shell exits at once; its background sleep inherits stdout.
    auto s = c.spawn(shell("echo before; sleep 100 & echo $!"));
    REQUIRE(s.ok());
    auto got = collect_output(c, s->handle, 10s);
    REQUIRE(got.out.size() == 2);
    CHECK(got.out[0] == "before");
    REQUIRE(got.err.size() == 1);
    CHECK(contains(got.err[0], "descendant"));
    // The leftover sleep is still in the group: kill it through the handle.
    pid_t straggler = static_cast<pid_t>(std::stol(got.out[1]));
    REQUIRE(c.signal(s->handle, SIGKILL, true).ok());
    CHECK(test::wait_until([&] { return !it::process_alive(straggler); }, 5s));
}
