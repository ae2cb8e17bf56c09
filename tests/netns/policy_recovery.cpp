// Recovery policies on several "hosts" (network namespaces, one daemon each
// with every VM service): a REBUILD stencil job (stencil_rebuild.c) whose
// replacements go where the policy says (docs/policies.md).
//
// * sliding: a 2x2 job on a 3x2 host grid with spares 2D(1,1); a host's
//   daemon is killed with SIGKILL, then the daemon where its rank went; the
//   ranks move as harness::placement computes for the same failures
//   (slidesim's implementation: a slide that moves a surviving rank too,
//   then what the hybrid picks next), and the job ends with the
//   failure-free answer; a third failure that no method can handle leaves
//   the rank out (a gap, REBUILD's fallback) and the program stops;
// * repeated: one rank killed three times on its host: RESTART twice, then
//   MIGRATE (detector repeated, threshold 2);
// * network: two of the three hosts behind switch s1 cut off: the second
//   loss passes the threshold and its rank migrates off s1; with the
//   sliding placement, a lost host's rank goes where the placement puts it
//   off the host's switch (0D instead of the 1D slide onto a host behind it);
// * promote: a killed rank's place goes to the hot standby started with the
//   job; with none left, the next fault restarts the rank;
// * a policy file naming an unknown component, or a bad value, is refused
//   before anything starts.
// Needs root: otherwise SKIPPED, 77.
#include "host_vm.hpp"

#include <harness/placement/placement.hpp>

#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <future>
#include <map>

using namespace harness;
using namespace harness::it;

namespace {

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

std::string ip_path() {
    return std::filesystem::exists("/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip";
}

void write_file(const std::filesystem::path &p, const std::string &text) {
    std::ofstream(p) << text;
}

// ftmpirun in host 0's namespace, talking to its daemon. NOP message mode:
// the stencil's halo exchanges with a live neighbour must fail once a
// failure is known, or a rank would wait for a neighbour already in the
// recovery (FT-MPI's message modes, ftmpi/FT_CONTRACTS.md).
std::vector<std::string> ftmpirun(const netns::Network &net, const std::filesystem::path &key,
                                  const std::vector<std::string> &options, const std::vector<std::string> &program) {
    std::vector<std::string> argv{
        ip_path(), "netns",      "exec",        net.ns(0), FTMPIRUN_PATH, "--hcore", net.address(0) + ":7001",
        "--key",   key.string(), "--comm-mode", "rebuild", "--msg-mode",  "nop"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), program.begin(), program.end());
    return argv;
}

std::vector<std::string> stencil(const std::filesystem::path &dir, int iters) {
    return {STENCIL_PATH, dir.string(), "--iters", std::to_string(iters), "--every", "5", "--sleep-ms", "20"};
}

pid_t read_pid(const std::filesystem::path &file) {
    std::ifstream in(file);
    long pid = 0;
    in >> pid;
    return static_cast<pid_t>(pid);
}

// Waits for every rank's pid file; returns their pids. When they do not
// come, the failure shows ftmpirun's output if it has ended (it may have
// refused the job).
std::vector<pid_t> wait_ranks(const std::filesystem::path &dir, int np, std::future<RunResult> &job) {
    std::vector<pid_t> pids(static_cast<std::size_t>(np), 0);
    const bool started = test::wait_until(
        [&] {
            for (int r = 0; r < np; ++r) {
                pids[static_cast<std::size_t>(r)] = read_pid(dir / ("rank" + std::to_string(r) + ".pid"));
                if (pids[static_cast<std::size_t>(r)] <= 0) return false;
            }
            return true;
        },
        60s);
    if (!started && job.wait_for(0s) == std::future_status::ready) {
        auto r = job.get();
        FAIL("the ranks did not start; ftmpirun ended with status " << r.exit_code() << "\nstdout:\n"
                                                                    << r.out << "\nstderr:\n"
                                                                    << r.err);
    }
    REQUIRE_MESSAGE(started, "the ranks did not start within 60 s (ftmpirun still runs)");
    return pids;
}

// Waits for rank's pid file to name a process other than `old`; returns
// that pid, or `old` when none came.
pid_t wait_new_pid(const std::filesystem::path &dir, int rank, pid_t old) {
    pid_t now = 0;
    const bool came = test::wait_until(
        [&] {
            now = read_pid(dir / ("rank" + std::to_string(rank) + ".pid"));
            return now > 0 && now != old;
        },
        60s);
    CHECK_MESSAGE(came, "rank " << rank << " has no new process 60 s after its pid " << old);
    return came ? now : old;
}

// Waits until rank has written a checkpoint after `since`: it has joined
// the job and computes again, so the next kill is a fault of its own rather
// than one inside the recovery.
void wait_checkpoint(const std::filesystem::path &dir, int rank, std::filesystem::file_time_type since) {
    CHECK(test::wait_until(
        [&] {
            std::error_code ec;
            for (const auto &e : std::filesystem::directory_iterator(dir, ec))
                if (e.path().filename().string().rfind("ckpt.rank" + std::to_string(rank) + ".", 0) == 0 &&
                    e.last_write_time(ec) > since)
                    return true;
            return false;
        },
        60s));
}

// The stencil as a 2x2 job on the 3x2 host grid of the 6 hosts of net with
// 2D(1,1) spares. Hosts in row-major order: (0,0) (1,0) (2,0) / (0,1) (1,1)
// (2,1); the last column is spare. Rank r starts at working place r: hosts
// 0 1 3 4. The ranks log at level info (the failures they see, each REBUILD
// round), so a failed check shows their side of the recovery too.
std::future<RunResult> start_grid_job(const netns::Network &net, const std::filesystem::path &dir,
                                      const std::filesystem::path &key, int iters) {
    std::string hostfile;
    for (int i = 0; i < 6; ++i)
        hostfile +=
            net.address(i) + ":7001 slots=1 coord=" + std::to_string(i % 3) + "," + std::to_string(i / 3) + "\n";
    write_file(dir / "hosts", hostfile);
    auto argv = ftmpirun(net, key,
                         {"--hostfile", (dir / "hosts").string(), "--grid", "2x2", "--spares", "2D(1,1)", "--timeout",
                          "150", "-x", "FTMPI_LOG_LEVEL=info", "-np", "4"},
                         stencil(dir, iters));
    return std::async(std::launch::async, [argv] { return run_program(argv, 170s); });
}

}  // namespace

TEST_CASE("sliding substitution: a host of a 2x2 job on a 3x2 grid with 2D(1,1) spares dies") {
    netns::Network net(6);
    test::TempDir work("hpolslide");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "polslide", key);
    auto job = start_grid_job(net, work.path(), key, 300);
    auto pids = wait_ranks(work.path(), 4, job);

    // The answers of the placement library for the same failures.
    placement::Placement expected(placement::HostGrid({3, 2}, false), placement::SparePattern::parse("2D(1,1)"));
    const auto hybrid = placement::Method::parse("hybrid(all)", 2);
    const int first = 1;  // (1,0), rank 1's host
    auto outcome = expected.fail(first, hybrid);
    REQUIRE(std::holds_alternative<placement::Substitution>(outcome));
    const auto one = std::get<placement::Substitution>(outcome);
    REQUIRE(one.moves.size() >= 2);          // a slide: a surviving rank moves too
    const int second = expected.host_of(1);  // where rank 1 went
    outcome = expected.fail(second, hybrid);
    REQUIRE(std::holds_alternative<placement::Substitution>(outcome));
    const auto two = std::get<placement::Substitution>(outcome);

    MESSAGE("killing daemon " << d[first]->id() << " (host " << first << ", rank 1) with SIGKILL");
    d[first]->kill_hard();
    // Rank 1 runs again at its new host and computes: the second failure.
    pid_t again = wait_new_pid(work.path(), 1, pids[1]);
    wait_checkpoint(work.path(), 1, std::filesystem::file_time_type::clock::now());
    MESSAGE("rank 1 runs again (pid " << again << "); killing daemon " << d[static_cast<std::size_t>(second)]->id()
                                      << " (host " << second << ")");
    d[static_cast<std::size_t>(second)]->kill_hard();

    auto r = job.get();
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "correct"));
    CHECK_FALSE(contains(r.out, "WRONG"));
    CHECK(contains(r.err, "MIGRATE by detector physical"));
    std::map<int, int> incarnation;
    for (const auto *sub : {&one, &two})
        for (const auto &m : sub->moves) {
            const int inc = ++incarnation[m.rank];
            const std::string to = d[static_cast<std::size_t>(m.to)]->id();
            CHECK_MESSAGE(
                contains(r.err,
                         "started rank " + std::to_string(m.rank) + "." + std::to_string(inc) + " on daemon " + to),
                "rank " << m.rank << "." << inc << " should start on host " << m.to);
            if (m.rank != 1) CHECK(contains(r.err, "moved to daemon " + to + " by the sliding substitution"));
        }
}

TEST_CASE("a failure no sliding method can handle: the rank is left out, as REBUILD does, and the program stops") {
    netns::Network net(6);
    test::TempDir work("hpolgap");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "polgap", key);
    auto job = start_grid_job(net, work.path(), key, 400);
    wait_ranks(work.path(), 4, job);
    // (1,0) slides rank 1 to (2,0) and rank 3 to (2,1); (2,0) sends rank 1
    // to the one free host left, (1,1); then (2,1), rank 3's, has nowhere.
    placement::Placement expected(placement::HostGrid({3, 2}, false), placement::SparePattern::parse("2D(1,1)"));
    const auto hybrid = placement::Method::parse("hybrid(all)", 2);
    for (int host : {1, 2}) REQUIRE(std::holds_alternative<placement::Substitution>(expected.fail(host, hybrid)));
    const int last = expected.host_of(3);
    REQUIRE(std::holds_alternative<placement::Refusal>(expected.fail(last, hybrid)));
    // A replacement that does not come fails the test here and again below,
    // with ftmpirun's output: what it planned and started, the recovery
    // steps it waited on for long, and the ranks' own account
    // (FTMPI_LOG_LEVEL=info: the failures they saw, each REBUILD round).
    std::string replacement_missing;  // the hosts after whose loss it did not come
    for (int host : {1, 2}) {         // rank 1's host both times
        pid_t before = read_pid(work.path() / "rank1.pid");
        MESSAGE("killing daemon " << d[static_cast<std::size_t>(host)]->id() << " (host " << host << ")");
        d[static_cast<std::size_t>(host)]->kill_hard();
        if (wait_new_pid(work.path(), 1, before) == before) replacement_missing += " " + std::to_string(host);
        wait_checkpoint(work.path(), 1, std::filesystem::file_time_type::clock::now());
    }
    MESSAGE("killing daemon " << d[static_cast<std::size_t>(last)]->id() << " (host " << last << ", rank 3)");
    d[static_cast<std::size_t>(last)]->kill_hard();
    auto r = job.get();
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    CHECK_MESSAGE(replacement_missing.empty(),
                  "rank 1's replacement wrote no pid file within 60 s after the loss of host" << replacement_missing);
    REQUIRE_FALSE(r.timed_out);
    CHECK(contains(r.err, "rank 3 gets no replacement"));
    CHECK(contains(r.err, "0D sliding: no free host left"));
    // The program sees the gap and gives up with one line (MPI_Abort, 3).
    CHECK(contains(r.err, "rank 3 could not be replaced"));
    CHECK(r.exit_code() == 3);
    CHECK_FALSE(contains(r.out, "correct"));
}

TEST_CASE("repeated faults on one host: RESTART twice, then MIGRATE") {
    netns::Network net(3);
    test::TempDir work("hpolrep");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "polrep", key);
    write_file(work.path() / "policy.json", R"({"detectors": [{"component": "repeated", "threshold": 2},
                                                            {"component": "process"}, {"component": "physical"}]})");
    // Ranks 0-1 on host 0, rank 2 on host 1, host 2 idle.
    std::string hosts = net.address(0) + ":7001:2," + net.address(1) + ":7001:1," + net.address(2) + ":7001:1";
    auto argv = ftmpirun(
        net, key,
        {"--host", hosts, "--ft-policy", (work.path() / "policy.json").string(), "--timeout", "150", "-np", "3"},
        stencil(work.path(), 500));
    auto job = std::async(std::launch::async, [argv] { return run_program(argv, 170s); });
    auto pids = wait_ranks(work.path(), 3, job);
    pid_t pid = pids[2];
    for (int kill = 1; kill <= 3; ++kill) {
        MESSAGE("kill " << kill << " of rank 2 (pid " << pid << ")");
        REQUIRE(::kill(pid, SIGKILL) == 0);
        if (kill == 3) break;
        pid = wait_new_pid(work.path(), 2, pid);
        wait_checkpoint(work.path(), 2, std::filesystem::file_time_type::clock::now());
    }
    auto r = job.get();
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "correct"));
    CHECK(contains(r.err, "started rank 2.1 on daemon " + d[1]->id()));
    CHECK(contains(r.err, "started rank 2.2 on daemon " + d[1]->id()));
    CHECK(contains(r.err, "MIGRATE by detector repeated"));
    // Off host 1, to the host running the fewest of the job's processes.
    CHECK(contains(r.err, "started rank 2.3 on daemon " + d[2]->id()));
}

TEST_CASE("two of three hosts behind a switch cut off: the second loss migrates off the switch") {
    netns::Network net(5);
    test::TempDir work("hpolnet");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "polnet", key);
    write_file(work.path() / "policy.json", R"({"detectors": [{"component": "network", "threshold": 0.6},
                                                            {"component": "physical"}, {"component": "process"}]})");
    // Hosts 0-2 behind s1 run the ranks; hosts 3-4 behind s2 are idle.
    std::string hostfile;
    for (int i = 0; i < 5; ++i)
        hostfile += net.address(i) + ":7001 slots=1 switch=" + std::string(i < 3 ? "s1" : "s2") + "\n";
    write_file(work.path() / "hosts", hostfile);
    auto argv = ftmpirun(net, key,
                         {"--hostfile", (work.path() / "hosts").string(), "--ft-policy",
                          (work.path() / "policy.json").string(), "--timeout", "150", "-np", "3"},
                         stencil(work.path(), 300));
    auto job = std::async(std::launch::async, [argv] { return run_program(argv, 170s); });
    wait_ranks(work.path(), 3, job);
    MESSAGE("cutting hosts 1 and 2 (switch s1)");
    net.cut(1);
    net.cut(2);
    auto r = job.get();
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "correct"));
    CHECK(contains(r.err, "MIGRATE by detector network"));
    for (int rank : {1, 2}) {
        const bool off_switch =
            contains(r.err, "started rank " + std::to_string(rank) + ".1 on daemon " + d[3]->id()) ||
            contains(r.err, "started rank " + std::to_string(rank) + ".1 on daemon " + d[4]->id());
        CHECK_MESSAGE(off_switch, "rank " << rank << " should restart behind switch s2");
    }
    net.restore(1);
    net.restore(2);
}

TEST_CASE(
    "sliding off a switch: the network detector's MIGRATE keeps the placement's moves off the lost host's switch") {
    netns::Network net(6);
    test::TempDir work("hpolsw");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "polsw", key);
    write_file(work.path() / "policy.json", R"({"detectors": [{"component": "network", "threshold": 0.3},
                                                            {"component": "physical"}, {"component": "process"}],
                                             "placement": {"component": "sliding"}})");
    // The 3x2 grid of start_grid_job, each row behind a switch: s1 = (0,0)
    // (1,0) (2,0), s2 = (0,1) (1,1) (2,1). Losing (1,0) (rank 1) takes a
    // third of s1: MIGRATE off s1. The plain choice, 1D along row 0 onto
    // the spare (2,0), is behind s1; the column has no spare; so 0D puts
    // rank 1 on the nearest free host off s1, (2,1) = host 5.
    std::string hostfile;
    for (int i = 0; i < 6; ++i)
        hostfile += net.address(i) + ":7001 slots=1 coord=" + std::to_string(i % 3) + "," + std::to_string(i / 3) +
            " switch=" + (i < 3 ? "s1" : "s2") + "\n";
    write_file(work.path() / "hosts", hostfile);
    auto argv = ftmpirun(net, key,
                         {"--hostfile", (work.path() / "hosts").string(), "--grid", "2x2", "--spares", "2D(1,1)",
                          "--ft-policy", (work.path() / "policy.json").string(), "--timeout", "150", "-np", "4"},
                         stencil(work.path(), 300));
    auto job = std::async(std::launch::async, [argv] { return run_program(argv, 170s); });
    wait_ranks(work.path(), 4, job);
    MESSAGE("killing daemon " << d[1]->id() << " (host 1, rank 1, switch s1)");
    d[1]->kill_hard();
    auto r = job.get();
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "correct"));
    CHECK(contains(r.err, "MIGRATE by detector network"));
    CHECK(contains(r.err, "started rank 1.1 on daemon " + d[5]->id()));
    CHECK_FALSE(contains(r.err, "on daemon " + d[2]->id()));
}

TEST_CASE("a hot standby takes a killed rank's place (PROMOTE), then the next fault restarts") {
    netns::Network net(2);
    test::TempDir work("hpolpro");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "polpro", key);
    // Ranks 0-1 on host 0; host 1 runs none, so the standby goes there.
    std::string hosts = net.address(0) + ":7001:2," + net.address(1) + ":7001:1";
    auto argv = ftmpirun(net, key, {"--host", hosts, "--standby", "1", "--timeout", "150", "-np", "2"},
                         stencil(work.path(), 400));
    auto job = std::async(std::launch::async, [argv] { return run_program(argv, 170s); });
    auto pids = wait_ranks(work.path(), 2, job);
    MESSAGE("killing rank 1 (pid " << pids[1] << ")");
    REQUIRE(::kill(pids[1], SIGKILL) == 0);
    pid_t promoted = wait_new_pid(work.path(), 1, pids[1]);
    wait_checkpoint(work.path(), 1, std::filesystem::file_time_type::clock::now());
    MESSAGE("rank 1 runs as the promoted standby (pid " << promoted << "); killing it too");
    CHECK(::kill(promoted, SIGKILL) == 0);

    auto r = job.get();
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "correct"));
    CHECK(contains(r.err, "PROMOTE by detector process"));
    CHECK(contains(r.err, "promoted standby 0 on daemon " + d[1]->id() + " to rank 1.1"));
    // No standby left: the fallback restarts rank 1 where it last ran.
    CHECK(contains(r.err, "started rank 1.2 on daemon " + d[1]->id()));
    CHECK(contains(r.out, "rank 1 incarnation 1 host " + d[1]->id()));
}

TEST_CASE("a policy with an unknown component or a bad value is refused before anything starts") {
    netns::Network net(1);
    test::TempDir work("hpolbad");
    auto key = test::write_vm_key(work.path() / "vm.key");
    auto d = netns::start_vm(net, "polbad", key);
    const std::vector<std::pair<std::string, std::string>> cases{
        {R"({"detectors": [{"component": "repeted"}]})", "repeted"},
        {R"({"detectors": [{"component": "repeated", "threshold": 0}]})", "threshold"},
        {R"({"detectors": [{"component": "process"}], "placment": {}})", "placment"},
    };
    for (const auto &[text, named] : cases) {
        write_file(work.path() / "policy.json", text);
        auto argv = ftmpirun(net, key, {"--ft-policy", (work.path() / "policy.json").string(), "-np", "1"},
                             stencil(work.path(), 1));
        auto r = run_program(argv, 60s);
        INFO(text << "\nftmpirun stderr:\n" << r.err);
        CHECK(r.exit_code() == 1);
        CHECK(contains(r.err, named));
        CHECK_FALSE(std::filesystem::exists(work.path() / "rank0.pid"));  // nothing started
    }
}

int main(int argc, char **argv) {
    return netns::run_tests(argc, argv);
}
