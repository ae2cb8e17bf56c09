// vm/spawn_notify against a real hcored: output complete and in order per
// stream, exit codes and signals, killing a whole process group, stdin,
// environment and working directory, exit events through the `wait` long
// poll, and no zombie left at any time.
#include "spawn_support.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <cstdlib>
#include <string>

using namespace harness;
using namespace harness::spawn_test;

TEST_CASE("every line arrives, in order per stream, including after the exit and a last partial line") {
    auto d = start_daemon();
    auto c = client_of(*d);
    // Both streams interleaved, 3000 lines each, then a line without '\n'.
    auto started = c.spawn(shell("i=1; while [ $i -le 3000 ]; do echo out$i; echo err$i >&2; i=$((i+1)); done; "
                                 "printf tail"));
    REQUIRE_MESSAGE(started.ok(), (started ? "" : started.error().describe()));
    // Wait for the exit first: everything must still be there afterwards.
    auto st = wait_exit(c, started->handle);
    CHECK(st.state == "exited");
    CHECK(st.exit_code == 0);
    auto got = collect_output(c, started->handle);
    REQUIRE(got.out.size() == 3001);
    REQUIRE(got.err.size() == 3000);
    for (int i = 1; i <= 3000; ++i) {
        REQUIRE(got.out[i - 1] == "out" + std::to_string(i));
        REQUIRE(got.err[i - 1] == "err" + std::to_string(i));
    }
    CHECK(got.out.back() == "tail");
}

TEST_CASE("exit codes, terminating signals and status") {
    auto d = start_daemon();
    auto c = client_of(*d);
    auto seven = c.spawn(shell("exit 7", "seven"));
    REQUIRE(seven.ok());
    auto st = wait_exit(c, seven->handle);
    CHECK(st.state == "exited");
    CHECK(st.exit_code == 7);
    CHECK(st.signal == 0);

    auto sleeper = c.spawn({{"sleep", "100"}, {}, "", "sleeper", ""});
    REQUIRE(sleeper.ok());
    CHECK(c.status(sleeper->handle)->state == "running");
    REQUIRE(c.signal(sleeper->handle, SIGTERM, false).ok());
    st = wait_exit(c, sleeper->handle);
    CHECK(st.state == "signaled");
    CHECK(st.exit_code == -1);
    CHECK(st.signal == SIGTERM);
    // A single process that has exited cannot be signalled again.
    auto again = c.signal(sleeper->handle, SIGTERM, false);
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().message.find("already exited") != std::string::npos);

    // The process that kills itself reports its own signal.
    auto self_kill = c.spawn(shell("kill -SEGV $$"));
    REQUIRE(self_kill.ok());
    st = wait_exit(c, self_kill->handle);
    CHECK(st.signal == SIGSEGV);
}

TEST_CASE("wait reports every exit once, in order, with tags") {
    auto d = start_daemon();
    auto c = client_of(*d);
    std::map<std::int64_t, std::string> tags;
    for (int i = 0; i < 5; ++i) {
        auto s = c.spawn(shell("exit " + std::to_string(i), "rank" + std::to_string(i)));
        REQUIRE(s.ok());
        tags[s->handle] = "rank" + std::to_string(i);
    }
    std::map<std::int64_t, int> codes;
    std::int64_t after = 0;
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (codes.size() < 5) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        auto w = c.wait(after, 2s);
        REQUIRE(w.ok());
        CHECK(w->next_event >= after);
        for (const auto &e : w->events) {
            CHECK(codes.count(e.handle) == 0);  // once
            CHECK(tags[e.handle] == e.tag);
            CHECK(e.signal == 0);
            codes[e.handle] = e.exit_code;
        }
        after = w->next_event;
    }
    for (const auto &[h, code] : codes) CHECK(tags[h] == "rank" + std::to_string(code));
    // Nothing new: the long poll returns empty at its deadline.
    auto quiet = c.wait(after, 100ms);
    REQUIRE(quiet.ok());
    CHECK(quiet->events.empty());
    CHECK(quiet->next_event == after);
}

TEST_CASE("signal with whole_group reaches the process's descendants") {
    auto d = start_daemon();
    auto c = client_of(*d);
    // The shell starts two background sleeps, prints their pids and waits.
    auto s = c.spawn(shell("sleep 100 & echo $!; sleep 100 & echo $!; wait"));
    REQUIRE(s.ok());
    std::vector<pid_t> grandchildren;
    std::int64_t after = 0;
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (grandchildren.size() < 2) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        auto o = c.output(s->handle, after, 1s);
        REQUIRE(o.ok());
        for (const auto &line : o->lines) grandchildren.push_back(static_cast<pid_t>(std::stol(line.text)));
        after = o->next_line;
    }
    for (pid_t g : grandchildren) CHECK(it::process_alive(g));
    REQUIRE(c.signal(s->handle, SIGKILL, true).ok());
    auto st = wait_exit(c, s->handle);
    CHECK(st.signal == SIGKILL);
    for (pid_t g : grandchildren) CHECK(test::wait_until([&] { return !it::process_alive(g); }, 5s));
}

TEST_CASE("stdin is delivered and closed on request") {
    auto d = start_daemon();
    auto c = client_of(*d);
    auto s = c.spawn({{"cat"}, {}, "", "", ""});
    REQUIRE(s.ok());
    std::string text = "hello\nworld\n";
    std::span<const std::uint8_t> data(reinterpret_cast<const std::uint8_t *>(text.data()), text.size());
    auto taken = c.write_stdin(s->handle, data, true, 2s);
    REQUIRE_MESSAGE(taken.ok(), (taken ? "" : taken.error().describe()));
    CHECK(*taken == static_cast<std::int64_t>(text.size()));
    auto got = collect_output(c, s->handle);
    CHECK(got.out == std::vector<std::string>{"hello", "world"});
    CHECK(wait_exit(c, s->handle).exit_code == 0);
    // Closed now: more data is refused with a reason.
    auto late = c.write_stdin(s->handle, data, false, 0ms);
    REQUIRE_FALSE(late.ok());
    CHECK(late.error().status == HARNESS_ERR_INVALID_ARGUMENT);
}

TEST_CASE("environment, working directory and the daemon's contact variables") {
    auto d = start_daemon();
    auto c = client_of(*d);
    test::TempDir dir("spawn-cwd");
    SpawnSpec spec =
        shell("echo \"$FOO\"; echo \"$HARNESS_MEMBER\"; echo \"$HARNESS_HCORE\"; echo \"$HARNESS_KEY\"; pwd");
    spec.env = {"FOO=bar baz"};
    spec.cwd = dir.path().string();
    auto s = c.spawn(spec);
    REQUIRE(s.ok());
    auto got = collect_output(c, s->handle);
    REQUIRE(got.out.size() == 5);
    CHECK(got.out[0] == "bar baz");
    CHECK(got.out[1] == d->id());
    CHECK(got.out[2] == d->tcp().to_string());
    CHECK(std::filesystem::equivalent(got.out[3], d->key_file()));
    CHECK(std::filesystem::equivalent(got.out[4], dir.path()));
}

TEST_CASE("no zombies: every exited child is reaped at once") {
    auto d = start_daemon();
    auto c = client_of(*d);
    std::vector<std::int64_t> handles;
    for (int i = 0; i < 10; ++i) {
        auto s = c.spawn({{"true"}, {}, "", "", ""});
        REQUIRE(s.ok());
        handles.push_back(s->handle);
    }
    for (auto h : handles) CHECK(wait_exit(c, h).exit_code == 0);
    CHECK(zombie_children(d->pid()).empty());
}

TEST_CASE("daemon stop kills and reaps its children, descendants included") {
    auto d = start_daemon();
    auto c = client_of(*d);
    std::vector<pid_t> pids;
    for (int i = 0; i < 3; ++i) {
        auto s = c.spawn({{"sleep", "100"}, {}, "", "", ""});
        REQUIRE(s.ok());
        pids.push_back(static_cast<pid_t>(s->pid));
    }
    auto sh = c.spawn(shell("sleep 100 & echo $!; wait"));
    REQUIRE(sh.ok());
    pids.push_back(static_cast<pid_t>(sh->pid));
    auto first = c.output(sh->handle, 0, 5s);
    REQUIRE(first.ok());
    REQUIRE(first->lines.size() == 1);
    pids.push_back(static_cast<pid_t>(std::stol(first->lines[0].text)));
    for (pid_t p : pids) CHECK(it::process_alive(p));

    int status = d->stop();
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    for (pid_t p : pids) CHECK(test::wait_until([&] { return !it::process_alive(p); }, 5s));
    // The plugin said what it did (the daemon logs to its stderr in the foreground).
    CHECK(d->stderr_text().find("spawn_notify: stopped; killed and reaped 4 process(es)") != std::string::npos);
}
