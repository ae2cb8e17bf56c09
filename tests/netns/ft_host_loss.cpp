// A fault-tolerant FT-MPI job across three "hosts" (network namespaces, one
// daemon each with every VM service) loses one host mid-run: its link is cut.
// The majority declares that daemon failed, ftmpirun publishes rank_lost for
// the rank it hosted, the survivors recover (SHRINK at MPI_Comm_dup, strict
// collectives) and finish with the correct answer; ftmpirun says what
// happened and exits 0 — promptly once the job's outcome is known (the
// survivors ended and the VM declared the cut host failed), not after a long
// poll to the unreachable daemon runs out. The program is the demo's
// (scripts/demo/ft_sum.c: a block-by-block sum that checks itself). Needs
// root: otherwise SKIPPED, 77.
#include "host_vm.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <utility>
using namespace harness;
using namespace harness::it;

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kHosts = 3;
// How long ftmpirun may take to exit once the job's outcome is known: its
// threads stop and it prints the summary, nothing waits on the lost host.
constexpr auto kExitBound = 5s;

// The pid a rank of ft_sum wrote to DIR/rank<r>.pid; 0 before it did.
pid_t rank_pid(const std::filesystem::path &dir, int rank) {
    std::ifstream in(dir / ("rank" + std::to_string(rank) + ".pid"));
    long pid = 0;
    in >> pid;
    return static_cast<pid_t>(pid);
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a host cut off mid-run: the FT job finishes correctly on the other two") {
    netns::Network net(kHosts);
    test::TempDir work("hftnetns");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "ftnetns", key);

    // Ranks 0-1 on host 0, rank 2 on host 1, rank 3 on host 2 (the victim).
    // ftmpirun runs in host 0's namespace, talking to its daemon.
    const int victim = 2;
    const std::string victim_id = d[victim]->id();
    std::string hosts = net.address(0) + ":7001:2," + net.address(1) + ":7001:1," + net.address(2) + ":7001:1";
    // (run_program execs its argv[0] as given: ip by its path.)
    std::string ip = std::filesystem::exists("/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip";
    std::vector<std::string> argv{ip,
                                  "netns",
                                  "exec",
                                  net.ns(0),
                                  FTMPIRUN_PATH,
                                  "--hcore",
                                  net.address(0) + ":7001",
                                  "--key",
                                  key.string(),
                                  "--host",
                                  hosts,
                                  "--comm-mode",
                                  "shrink",
                                  "--strict-collectives",
                                  "--tag-output",
                                  "--timeout",
                                  "100",
                                  "-np",
                                  "4",
                                  FT_SUM_PATH,
                                  work.path().string(),
                                  "40",
                                  "100"};
    auto job = std::async(std::launch::async, [argv] {
        auto r = run_program(argv, 120s);
        return std::pair{r, Clock::now()};
    });

    // Mid-run: every rank has started (its pid file), the sum takes ≥ 4 s.
    CHECK(test::wait_until(
        [&] {
            for (int r = 0; r < 4; ++r)
                if (!std::filesystem::exists(work.path() / ("rank" + std::to_string(r) + ".pid"))) return false;
            return true;
        },
        30s));
    MESSAGE("cutting host " << victim << " (daemon " << victim_id << ", rank 3)");
    net.cut(victim);

    // The job's outcome is known once ranks 0-2 have ended and the VM has
    // declared the victim's daemon failed (ftmpirun then counts rank 3 lost).
    std::vector<pid_t> survivors;
    for (int rank = 0; rank < 3; ++rank) survivors.push_back(rank_pid(work.path(), rank));
    CHECK(std::count(survivors.begin(), survivors.end(), 0) == 0);
    const bool outcome_known = test::wait_until(
        [&] {
            for (pid_t pid : survivors)
                if (pid > 0 && process_alive(pid)) return false;
            auto seen = netns::states_seen_by(*d[0]);
            return seen.count(victim_id) && !seen[victim_id];
        },
        110s);
    const auto known_at = Clock::now();

    const auto ended = job.get();
    const RunResult &r = ended.first;
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    MESSAGE("ftmpirun said:\n" << r.err);
    REQUIRE(outcome_known);
    const auto exit_delay = std::chrono::duration_cast<std::chrono::milliseconds>(ended.second - known_at);
    MESSAGE("ftmpirun exited " << exit_delay.count() << " ms after the job's outcome was known");
    CHECK(exit_delay < kExitBound);
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "3 of 4 ranks go on"));
    CHECK(contains(r.out, "correct"));
    CHECK_FALSE(contains(r.out, "WRONG"));
    CHECK(contains(r.err, "rank 3 (daemon " + victim_id + ") was lost"));
    CHECK(contains(r.err, "the job continued (comm mode shrink) and finished with 3 of 4 ranks"));
    // The others saw it as the VM did.
    for (int i = 0; i < kHosts; ++i) {
        if (i == victim) continue;
        CHECK(test::wait_until(
            [&] {
                auto s = netns::states_seen_by(*d[static_cast<std::size_t>(i)]);
                return s.count(victim_id) && !s[victim_id];
            },
            5s));
    }
    net.restore(victim);  // the daemons stop (and kill what they run) as the test ends
}

int main(int argc, char **argv) {
    return netns::run_tests(argc, argv);
}
