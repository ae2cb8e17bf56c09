// When a rank's own daemon counts as lost (ftmpi/src/runtime/daemon_watch.hpp):
// a real job (daemon_watch_job.c, 2 ranks) on a one-daemon VM with every VM
// service, whose daemon the test stops (SIGSTOP) or kills (SIGKILL).
//
// * stopped for three times FTMPI_DAEMON_LOST_MS, then continued: a starved
//   daemon looks like this (its connections stay open, it answers nothing);
//   the ranks must not leave, and the job finishes;
// * killed: its connections close and connects are refused; the ranks leave
//   within FTMPI_DAEMON_LOST_MS (plus the time to notice), as fast as before
//   the rule told a silent daemon from a gone one;
// * stopped for good: the ranks outlive FTMPI_DAEMON_LOST_MS but leave after
//   FTMPI_DAEMON_HUNG_MS, saying so.
#include "spawn_support.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <future>

using namespace harness;
using namespace harness::spawn_test;

namespace {

using Clock = std::chrono::steady_clock;

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

it::Vm start_ft_vm() {
    auto args = it::fast_heartbeat_args();
    args.push_back("--services");
    args.push_back(test::kAllServices);
    return it::start_vm(1, args, 30s);
}

// ftmpirun running the job in the background; settings: -x options.
std::future<it::RunResult> start_job(it::Vm &vm, const std::filesystem::path &dir,
                                     const std::vector<std::string> &settings) {
    std::vector<std::string> argv{FTMPIRUN_PATH, "--hcore", vm[0].tcp().to_string(), "--key", vm.key_file.string(),
                                  "--timeout",   "90",      "--comm-mode",           "shrink"};
    for (const auto &s : settings) argv.insert(argv.end(), {"-x", s});
    argv.insert(argv.end(), {"-np", "2", DAEMON_WATCH_JOB_PATH, dir.string()});
    return std::async(std::launch::async, [argv] { return it::run_program(argv, 120s); });
}

// Waits for both ranks' pid files.
std::vector<pid_t> wait_ranks(const std::filesystem::path &dir) {
    std::vector<pid_t> pids;
    for (int r = 0; r < 2; ++r) {
        long pid = 0;
        REQUIRE_MESSAGE(test::wait_until(
                            [&] {
                                std::ifstream in(dir / ("pid" + std::to_string(r)));
                                return in >> pid && pid > 0;
                            },
                            30s),
                        "rank " << r << " did not start");
        pids.push_back(static_cast<pid_t>(pid));
    }
    return pids;
}

bool all_gone(const std::vector<pid_t> &pids) {
    for (pid_t p : pids)
        if (it::process_alive(p)) return false;
    return true;
}

bool all_alive(const std::vector<pid_t> &pids) {
    for (pid_t p : pids)
        if (!it::process_alive(p)) return false;
    return true;
}

}  // namespace

TEST_CASE("a daemon stopped longer than FTMPI_DAEMON_LOST_MS (a starved one) is not lost: the job finishes") {
    auto vm = start_ft_vm();
    test::TempDir dir("ftmpi-daemon-stopped");
    auto job = start_job(vm, dir.path(), {"FTMPI_DAEMON_LOST_MS=1000"});
    auto pids = wait_ranks(dir.path());

    vm[0].signal(SIGSTOP);
    const auto stopped = Clock::now();
    // Three times the bound, watching that no rank leaves meanwhile.
    bool alive = true;
    while (alive && Clock::now() - stopped < 3s) {
        alive = all_alive(pids);
        std::this_thread::sleep_for(50ms);
    }
    vm[0].signal(SIGCONT);
    CHECK_MESSAGE(alive, "a rank left while its daemon was stopped");
    std::ofstream(dir.path() / "done") << "1\n";

    auto r = job.get();
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "rank 0 done"));
    CHECK(contains(r.out, "rank 1 done"));
    CHECK_FALSE(contains(r.err, "has not answered"));
}

TEST_CASE("a killed daemon is lost within FTMPI_DAEMON_LOST_MS: its ranks leave") {
    auto vm = start_ft_vm();
    test::TempDir dir("ftmpi-daemon-killed");
    // The hung bound far away: a closed connection must not wait for it.
    auto job = start_job(vm, dir.path(), {"FTMPI_DAEMON_LOST_MS=1000", "FTMPI_DAEMON_HUNG_MS=60000"});
    auto pids = wait_ranks(dir.path());

    const auto killed = Clock::now();
    vm[0].kill_hard();
    // The bound, plus a reconnect attempt's pause and a loaded machine's
    // slack; the hung bound would be 60 s.
    const bool left = test::wait_until([&] { return all_gone(pids); }, 6s);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - killed);
    CHECK_MESSAGE(left, "the ranks still run " << took.count() << " ms after their daemon was killed");
    MESSAGE("the ranks left " << took.count() << " ms after their daemon was killed");
    CHECK(took >= 1000ms);  // not before the bound
    for (pid_t p : pids)
        if (it::process_alive(p)) ::kill(p, SIGKILL);
    auto r = job.get();
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    CHECK_FALSE(r.timed_out);
}

TEST_CASE("a daemon stopped for good is lost after FTMPI_DAEMON_HUNG_MS, not FTMPI_DAEMON_LOST_MS") {
    auto vm = start_ft_vm();
    test::TempDir dir("ftmpi-daemon-hung");
    auto job = start_job(vm, dir.path(), {"FTMPI_DAEMON_LOST_MS=500", "FTMPI_DAEMON_HUNG_MS=3000"});
    auto pids = wait_ranks(dir.path());

    vm[0].signal(SIGSTOP);
    const auto stopped = Clock::now();
    bool alive = true;
    while (alive && Clock::now() - stopped < 2s) {  // four times the short bound
        alive = all_alive(pids);
        std::this_thread::sleep_for(50ms);
    }
    CHECK_MESSAGE(alive, "a rank left before FTMPI_DAEMON_HUNG_MS");
    // The bound, plus one fetch and one ping that time out (3.5 s).
    const bool left = test::wait_until([&] { return all_gone(pids); }, 10s);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - stopped);
    vm[0].signal(SIGCONT);
    CHECK_MESSAGE(left, "the ranks still run " << took.count() << " ms after their daemon was stopped");
    MESSAGE("the ranks left " << took.count() << " ms after their daemon was stopped");
    for (pid_t p : pids)
        if (it::process_alive(p)) ::kill(p, SIGKILL);
    auto r = job.get();
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(contains(r.err, "its daemon has not answered for 3000 ms (its connection open, no answer"));
    CHECK(r.exit_code() != 0);
}
