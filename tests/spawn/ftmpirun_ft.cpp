// ftmpirun as the job's failure authority, against real daemons with every VM
// service and shell-command ranks (no MPI library needed): the test plays the
// FT-MPI ranks' part on job/<J> — it publishes `fence` and `respawn` and reads
// what ftmpirun publishes (`respawned`, `respawn_failed`, `rank_lost`).
#include "failure_policy.hpp"
#include "job_events.hpp"
#include "spawn_support.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <future>
#include <optional>

using namespace harness;
using namespace harness::spawn_test;
using harness::ftmpirun::pack_fence;
using harness::ftmpirun::pack_respawn;

namespace {

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

std::size_t count_of(const std::string &text, const std::string &part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

// Waits until a rank has written file (its content, trimmed), with a deadline.
std::string wait_file(const std::filesystem::path &file, std::chrono::milliseconds timeout = 20s) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        std::ifstream in(file);
        std::string s;
        if (in && std::getline(in, s) && !s.empty()) return s;
        REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, file.string() << " was not written");
        std::this_thread::sleep_for(20ms);
    }
}

void publish(hlib::VirtualMachine &vm, const std::string &topic, const Bytes &payload) {
    Packer args;
    args.str(topic).bytes(payload);
    auto r = vm.local().call(ComponentName{"vm", "events"}, "publish", args.view(), HARNESS_CALL_PACKED,
                             HARNESS_MODE_DEFAULT, hlib::deadline_in(20s));
    REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
}

struct TopicEvent {
    std::string kind;
    Bytes payload;
};

// Reads topic (long polls) until some event satisfies want; returns it.
class TopicReader {
public:
    TopicReader(hlib::VirtualMachine &vm, std::string topic) : vm_(vm), topic_(std::move(topic)) {}

    // Nothing when it does not come in time.
    template <class Want>
    std::optional<TopicEvent> until(Want want, std::chrono::milliseconds timeout = 30s) {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            // Every event read so far, not only new ones: the awaited events
            // of a test may come in any order.
            for (const auto &e : seen_)
                if (want(e)) return e;
            if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
            Packer args;
            args.str(topic_).i64(after_).i64(500).i64(100);
            auto r = vm_.local().call(ComponentName{"vm", "events"}, "fetch", args.view(), HARNESS_CALL_PACKED,
                                      HARNESS_MODE_DEFAULT, hlib::deadline_in(10s));
            if (!r) continue;  // the events service failing over: ask again
            Unpacker u(*r);
            std::int64_t n = 0;
            REQUIRE(u.i64(n));
            for (std::int64_t i = 0; i < n; ++i) {
                TopicEvent e;
                REQUIRE(u.i64(after_));
                REQUIRE(u.bytes(e.payload));
                Unpacker p(e.payload);
                REQUIRE(p.str(e.kind));
                seen_.push_back(std::move(e));
            }
        }
    }
    // Every event read so far of this kind.
    std::size_t count(const std::string &kind) const {
        std::size_t n = 0;
        for (const auto &e : seen_) n += e.kind == kind;
        return n;
    }

private:
    hlib::VirtualMachine &vm_;
    std::string topic_;
    std::int64_t after_ = 0;
    std::vector<TopicEvent> seen_;
};

// Fields after the kind.
struct Fields {
    explicit Fields(const Bytes &payload) : u(payload) { u.str(kind); }
    int i32() {
        std::int32_t v = -1;
        REQUIRE(u.i32(v));
        return v;
    }
    std::string str() {
        std::string s;
        REQUIRE(u.str(s));
        return s;
    }
    Unpacker u;
    std::string kind;
};

it::Vm start_ft_vm(std::size_t n) {
    auto args = it::fast_heartbeat_args();
    args.push_back("--services");
    args.push_back(test::kAllServices);
    return it::start_vm(n, args, 30s);
}

// ftmpirun in the background (its own --timeout ends a hung job, so its
// output can be shown when an awaited event does not come).
class Background {
public:
    Background(const test::Daemon &d, const it::Vm &vm, std::vector<std::string> args) {
        std::vector<std::string> argv{FTMPIRUN_PATH, "--hcore", d.tcp().to_string(), "--key", vm.key_file.string(),
                                      "--timeout",   "60"};
        argv.insert(argv.end(), args.begin(), args.end());
        run_ = std::async(std::launch::async, [argv] { return it::run_program(argv, 90s); });
    }
    it::RunResult result() {
        if (!result_) result_ = run_.get();
        return *result_;
    }
    // An awaited event: fails the test with ftmpirun's output when absent.
    TopicEvent require(std::optional<TopicEvent> e, const std::string &what) {
        if (!e) {
            auto r = result();
            FAIL(what << " never came; ftmpirun status " << r.exit_code() << "\nstdout:\n"
                      << r.out << "\nstderr:\n"
                      << r.err);
        }
        return *e;
    }

private:
    std::future<it::RunResult> run_;
    std::optional<it::RunResult> result_;
};

}  // namespace

TEST_CASE("fence kills the named process; respawn starts one replacement per (round, rank) and says so") {
    auto vm = start_ft_vm(1);
    auto h = it::connect(vm[0]);
    test::TempDir dir("ftmpirun-respawn");
    // Originals note their job id; rank 1 then waits to be fenced; rank 0
    // waits for the test's "done" file. A replacement says who it is.
    std::string rank = "if [ \"${FTMPI_RESTARTED-}\" = 1 ]; then "
                       "echo replacement $FTMPI_RANK inc=$FTMPI_INCARNATION round=$FTMPI_ROUND; exit 0; fi; "
                       "echo $FTMPI_JOB > job$FTMPI_RANK; "
                       "if [ $FTMPI_RANK = 1 ]; then exec sleep 100; fi; "
                       "until [ -e done ]; do sleep 0.02; done; echo rank0 done";
    Background run(
        vm[0], vm,
        {"--comm-mode", "rebuild", "--tag-output", "--wdir", dir.path().string(), "-np", "2", "sh", "-c", rank});
    std::string job = wait_file(dir.path() / "job0");
    REQUIRE(wait_file(dir.path() / "job1") == job);
    const std::string topic = "job/" + job;
    TopicReader reader(h, topic);

    publish(h, topic, pack_fence(1, 0, 0, "suspected by the test"));
    run.require(reader.until([](const TopicEvent &e) {
        if (e.kind != "proc_exit") return false;
        Fields f(e.payload);
        f.str();
        Unpacker &u = f.u;
        std::int64_t handle = 0, pid = 0;
        std::string tag;
        std::int32_t code = 0, sig = 0;
        REQUIRE((u.i64(handle) && u.i64(pid) && u.str(tag) && u.i32(code) && u.i32(sig)));
        return tag == "1" && sig == SIGKILL;
    }),
                "rank 1's proc_exit after the fence");

    // The same request three times (as every survivor might send it) and one
    // for a rank the job does not have.
    for (int i = 0; i < 3; ++i) publish(h, topic, pack_respawn(1, {1}));
    publish(h, topic, pack_respawn(1, {7}));
    auto respawned = run.require(reader.until([](const TopicEvent &e) { return e.kind == "respawned"; }), "respawned");
    Fields r(respawned.payload);
    CHECK(r.i32() == 1);           // round
    CHECK(r.i32() == 1);           // rank
    CHECK(r.i32() == 1);           // incarnation
    CHECK(r.str() == vm[0].id());  // its daemon is alive: the same one
    auto failed =
        run.require(reader.until([](const TopicEvent &e) { return e.kind == "respawn_failed"; }), "respawn_failed");
    Fields rf(failed.payload);
    CHECK(rf.i32() == 1);
    CHECK(rf.i32() == 7);
    CHECK(contains(rf.str(), "no rank 7"));
    // The replacement ends normally (its tag carries the incarnation).
    run.require(reader.until([](const TopicEvent &e) {
        if (e.kind != "proc_exit") return false;
        Fields f(e.payload);
        f.str();
        std::int64_t handle = 0, pid = 0;
        std::string tag;
        std::int32_t code = -1, sig = 0;
        REQUIRE((f.u.i64(handle) && f.u.i64(pid) && f.u.str(tag) && f.u.i32(code) && f.u.i32(sig)));
        return tag == "1.1" && code == 0;
    }),
                "the replacement's proc_exit");
    std::ofstream(dir.path() / "done") << "1\n";

    auto result = run.result();
    INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
    REQUIRE_FALSE(result.timed_out);
    CHECK(result.exit_code() == 0);
    CHECK(count_of(result.out, "replacement 1 inc=1 round=1") == 1);
    CHECK(contains(result.out, "[" + job + ",1.1]<stdout>:replacement 1"));
    CHECK(contains(result.out, "[" + job + ",0]<stdout>:rank0 done"));
    CHECK(contains(result.err, "rank 1 is fenced at the request of rank 0 (suspected by the test): killing it"));
    CHECK(contains(result.err, "started rank 1.1 on daemon " + vm[0].id() + " (round 1) to replace rank 1"));
    CHECK(contains(result.err,
                   "the job continued (comm mode rebuild), 1 replacement started, and finished with 2 of "
                   "2 ranks"));
    CHECK(reader.count("respawned") == 1);
}

// docs/policies.md "Which gaps are refilled": the survivors name every gap
// again at each later REBUILD round; a gap the policy chose (IGNORE) is
// refused at once with the first reason, without asking the policy again.
TEST_CASE("a gap the policy chose (IGNORE) is refused at every later round without a new decision") {
    auto vm = start_ft_vm(1);
    auto h = it::connect(vm[0]);
    test::TempDir dir("ftmpirun-ignore-gap");
    std::ofstream(dir.path() / "policy.json") << R"({"detectors": [{"component": "process", "protocol": "IGNORE"}]})";
    // Rank 1 notes its pid and sleeps (the test kills it); rank 0 waits
    // for "done". A replacement must never start.
    std::string rank = "if [ \"${FTMPI_RESTARTED-}\" = 1 ]; then echo replacement $FTMPI_RANK; exit 0; fi; "
                       "echo $FTMPI_JOB > job$FTMPI_RANK; "
                       "if [ $FTMPI_RANK = 1 ]; then echo $$ > pid1; exec sleep 100; fi; "
                       "until [ -e done ]; do sleep 0.02; done; echo rank0 done";
    Background run(vm[0], vm,
                   {"--comm-mode", "rebuild", "--ft-policy", (dir.path() / "policy.json").string(), "--wdir",
                    dir.path().string(), "-np", "2", "sh", "-c", rank});
    std::string job = wait_file(dir.path() / "job0");
    const pid_t rank1 = std::stoi(wait_file(dir.path() / "pid1"));
    const std::string topic = "job/" + job;
    TopicReader reader(h, topic);
    REQUIRE(::kill(rank1, SIGKILL) == 0);
    run.require(reader.until([](const TopicEvent &e) {
        if (e.kind != "proc_exit") return false;
        Fields f(e.payload);
        f.str();
        std::int64_t handle = 0, pid = 0;
        std::string tag;
        REQUIRE((f.u.i64(handle) && f.u.i64(pid) && f.u.str(tag)));
        return tag == "1";
    }),
                "rank 1's proc_exit");

    // Round 1 asks for the failed rank, rounds 2 and 3 for the gap again.
    std::vector<std::string> reasons;
    for (int round = 1; round <= 3; ++round) {
        publish(h, topic, pack_respawn(round, {1}));
        auto failed = run.require(reader.until([round](const TopicEvent &e) {
            if (e.kind != "respawn_failed") return false;
            Fields f(e.payload);
            return f.i32() == round;
        }),
                                  "respawn_failed of round " + std::to_string(round));
        Fields f(failed.payload);
        CHECK(f.i32() == round);
        CHECK(f.i32() == 1);
        reasons.push_back(f.str());
    }
    CHECK(contains(reasons[0], "the recovery policy leaves it out"));
    CHECK(reasons[1] == reasons[0]);
    CHECK(reasons[2] == reasons[0]);
    std::ofstream(dir.path() / "done") << "1\n";

    auto result = run.result();
    INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
    REQUIRE_FALSE(result.timed_out);
    CHECK(reader.count("respawned") == 0);
    CHECK_FALSE(contains(result.out, "replacement 1"));
    // Decided once, when rank 1 died; the later requests did not ask again.
    CHECK(count_of(result.err, "policy: rank 1 (") == 1);
    CHECK(count_of(result.err, "rank 1 gets no replacement (round 1)") == 1);
}

TEST_CASE("a daemon killed with -9: its rank is published as rank_lost and the job finishes on the others") {
    auto vm = start_ft_vm(3);
    auto h = it::connect(vm[0]);
    test::TempDir dir("ftmpirun-hostloss");
    // One rank per daemon. Rank 2 notes its pid (the test kills it with its
    // daemon: an orphaned shell would not notice); ranks 0 and 1 wait for "done".
    std::string rank = "echo $FTMPI_JOB > job$FTMPI_RANK; echo $$ > pid$FTMPI_RANK; "
                       "until [ -e done ]; do sleep 0.02; done; echo rank$FTMPI_RANK done";
    std::string hosts = vm[0].id() + "," + vm[1].id() + "," + vm[2].id();
    Background run(
        vm[0], vm,
        {"--comm-mode", "shrink", "--host", hosts, "--wdir", dir.path().string(), "-np", "3", "sh", "-c", rank});
    std::string job = wait_file(dir.path() / "job0");
    pid_t rank2 = std::stoi(wait_file(dir.path() / "pid2"));
    wait_file(dir.path() / "pid1");
    const std::string lost_member = vm[2].id();
    vm[2].kill_hard();
    ::kill(rank2, SIGKILL);

    TopicReader reader(h, "job/" + job);
    auto lost = run.require(reader.until([](const TopicEvent &e) { return e.kind == "rank_lost"; }), "rank_lost");
    Fields f(lost.payload);
    CHECK(f.i32() == 2);  // rank
    CHECK(f.i32() == 0);  // incarnation
    CHECK(f.str() == lost_member);
    CHECK(contains(f.str(), "declared failed"));
    std::ofstream(dir.path() / "done") << "1\n";

    auto result = run.result();
    INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
    REQUIRE_FALSE(result.timed_out);
    CHECK(result.exit_code() == 0);
    CHECK(contains(result.out, "rank0 done"));
    CHECK(contains(result.out, "rank1 done"));
    CHECK(contains(result.err, "rank 2 (daemon " + lost_member + ") was lost"));
    CHECK(contains(result.err, "the job continued (comm mode shrink) and finished with 2 of 3 ranks"));
    CHECK(reader.count("rank_lost") == 1);
}
