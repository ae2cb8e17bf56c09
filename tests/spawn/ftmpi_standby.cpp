// Hot standbys (the PROMOTE protocol, ftmpi/src/ft/RECOVERY.md "Hot
// standbys") against a real daemon with every VM service: the test starts a
// two-rank REBUILD job of standby_job.c and a standby process (the same
// program, FTMPI_STANDBY=0) through vm/spawn_notify as ftmpirun would, kills
// rank 1 with SIGKILL, and plays ftmpirun's part in the recovery: when the
// survivor publishes `respawn` it publishes `promote` to the standby and
// then `respawned`. The standby's MPI_Init must return
// MPI_INIT_RESTARTED_NODE as rank 1 and the job's sum must be right, both
// when the standby waited from the start and when it started only after
// its promote was published (it reads the topic's history). Also: a
// standby that is never promoted gives up after FTMPI_STANDBY_MS, and one
// whose daemon does not answer leaves after FTMPI_DAEMON_LOST_MS, each with
// status 1 and one line on stderr.
#include "job_events.hpp"
#include "spawn_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <functional>
#include <optional>
#include <set>
#include <unistd.h>

using namespace harness;
using namespace harness::spawn_test;
using harness::ftmpirun::pack_promote;
using harness::ftmpirun::pack_respawned;

namespace {

std::string joined(const std::vector<std::string> &lines) {
    std::string s;
    for (const auto &l : lines) s += "  " + l + "\n";
    return s;
}

// One process of the job with the output read so far.
struct Proc {
    std::string name;
    std::int64_t handle = 0;
    std::int64_t after = 0;
    std::vector<std::string> out, err;
    bool finished = false;

    // Reads what is there (waiting up to `wait` for something new).
    void read(SpawnClient &c, std::chrono::milliseconds wait) {
        if (finished) return;
        auto o = c.output(handle, after, wait);
        REQUIRE_MESSAGE(o.ok(), (o ? "" : o.error().describe()));
        for (auto &line : o->lines) (line.stream == 1 ? out : err).push_back(line.text);
        after = o->next_line;
        finished = o->finished;
    }
    bool printed(const std::string &text) const {
        return std::any_of(out.begin(), out.end(), [&](const std::string &l) { return l == text; });
    }
};

// The job: its processes, the topic and what the test publishes on it.
class Job {
public:
    Job(test::Daemon &d, const std::string &name)
        : vm_(it::connect(d)), client_(client_of(d)), dir_("ftmpi-standby"), job_(name + std::to_string(::getpid())),
          topic_("job/" + job_) {}

    Proc &start(const std::string &tag, std::vector<std::string> extra) {
        SpawnSpec s;
        s.argv = {STANDBY_JOB_PATH};
        s.env = {"FTMPI_JOB=" + job_, "FTMPI_JOB_KEY=standbytest", "FTMPI_SIZE=2",
                 "FTMPI_WIREUP=dir:" + wireup().string(), "FTMPI_COMM_MODE=rebuild"};
        s.env.insert(s.env.end(), extra.begin(), extra.end());
        s.cwd = dir_.path().string();
        s.tag = tag;
        s.notify_topic = topic_;
        auto started = client_.spawn(s);
        REQUIRE_MESSAGE(started.ok(), (started ? "" : started.error().describe()));
        REQUIRE(client_.write_stdin(started->handle, {}, true, 0ms).ok());
        procs_.push_back(std::make_unique<Proc>(Proc{tag, started->handle}));
        return *procs_.back();
    }
    Proc &rank(int r) { return start(std::to_string(r), {"FTMPI_RANK=" + std::to_string(r)}); }
    // As ftmpirun starts a standby: FTMPI_RANK=0 means nothing; its tag
    // must not read as a rank's, so its exit is nobody's failure.
    Proc &standby() { return start("standby.0", {"FTMPI_RANK=0", "FTMPI_STANDBY=0"}); }

    // Reads every process's output until p printed `line`.
    void until_printed(Proc &p, const std::string &line, std::chrono::milliseconds timeout = 30s) {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!p.printed(line)) {
            if (p.finished || std::chrono::steady_clock::now() > deadline)
                FAIL(p.name << " did not print \"" << line << "\"\n" << dump());
            p.read(client_, 300ms);
        }
    }
    void finish(Proc &p, std::chrono::milliseconds timeout = 40s) {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!p.finished) {
            if (std::chrono::steady_clock::now() > deadline) FAIL(p.name << " did not finish\n" << dump());
            p.read(client_, 500ms);
        }
    }
    spawn_client::ProcStatus status(Proc &p) {
        auto s = client_.status(p.handle);
        REQUIRE_MESSAGE(s.ok(), (s ? "" : s.error().describe()));
        return *s;
    }
    void kill(Proc &p) { REQUIRE(client_.signal(p.handle, SIGKILL, true).ok()); }
    spawn_client::ProcStatus exit_of(Proc &p) { return wait_exit(client_, p.handle); }
    void read(Proc &p, std::chrono::milliseconds wait) { p.read(client_, wait); }

    void publish(const Bytes &payload) {
        auto seq = ftmpi_publish(payload);
        REQUIRE_MESSAGE(seq.ok(), (seq ? "" : seq.error().describe()));
    }
    // The survivors' `respawn`: its round, once it names exactly rank 1.
    int wait_respawn(std::chrono::milliseconds timeout = 30s) {
        auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "no respawn on " << topic_ << "\n" << dump());
            Packer args;
            args.str(topic_).i64(after_).i64(500).i64(100);
            auto r = vm_.local().call(ComponentName{"vm", "events"}, "fetch", args.view(), HARNESS_CALL_PACKED,
                                      HARNESS_MODE_DEFAULT, hlib::deadline_in(10s));
            if (!r) continue;
            Unpacker u(*r);
            std::int64_t n = 0;
            REQUIRE(u.i64(n));
            for (std::int64_t i = 0; i < n; ++i) {
                Bytes payload;
                REQUIRE(u.i64(after_));
                REQUIRE(u.bytes(payload));
                Unpacker p(payload);
                std::string kind;
                std::int32_t round = 0, count = 0, rank = -1;
                REQUIRE(p.str(kind));
                if (kind != "respawn") continue;
                REQUIRE((p.i32(round) && p.i32(count)));
                REQUIRE(count == 1);
                REQUIRE(p.i32(rank));
                REQUIRE(rank == 1);
                return round;
            }
        }
    }

    std::filesystem::path wireup() const { return dir_.path() / "wireup"; }
    std::set<std::string> wireup_records() const {
        std::set<std::string> names;
        for (const auto &e : std::filesystem::directory_iterator(wireup())) names.insert(e.path().filename().string());
        return names;
    }
    const std::string &member() { return client_.member_id(); }

    std::string dump() const {
        std::string s;
        for (const auto &p : procs_)
            s += p->name + " stdout:\n" + joined(p->out) + p->name + " stderr:\n" + joined(p->err);
        return s;
    }

    void make_wireup_dir() { std::filesystem::create_directory(wireup()); }

private:
    Result<std::int64_t> ftmpi_publish(const Bytes &payload) {
        Packer args;
        args.str(topic_).bytes(payload);
        auto r = vm_.local().call(ComponentName{"vm", "events"}, "publish", args.view(), HARNESS_CALL_PACKED,
                                  HARNESS_MODE_DEFAULT, hlib::deadline_in(20s));
        if (!r) return r.error();
        Unpacker u(*r);
        std::int64_t seq = 0;
        if (!u.i64(seq)) return make_error(HARNESS_ERR_PROTOCOL, "publish reply");
        return seq;
    }

    hlib::VirtualMachine vm_;
    SpawnClient client_;
    test::TempDir dir_;
    std::string job_, topic_;
    std::int64_t after_ = 0;
    std::vector<std::unique_ptr<Proc>> procs_;
};

it::Vm start_services_vm() {
    auto args = it::fast_heartbeat_args();
    args.push_back("--services");
    args.push_back(test::kAllServices);
    return it::start_vm(1, args, 30s);
}

// What the survivor and the promoted standby must have printed, and that
// both finalized and exited 0.
void check_job_result(Job &job, Proc &rank0, Proc &promoted) {
    job.finish(promoted);
    job.finish(rank0);
    INFO(job.dump());
    CHECK(promoted.printed("standby_job: restarted as rank 1 of 2"));
    CHECK(promoted.printed("standby_job: rank 1 sum 3"));
    CHECK(promoted.printed("standby_job: rank 1 finalized"));
    CHECK(rank0.printed("standby_job: rank 0 saw rank 1 fail"));
    CHECK(rank0.printed("standby_job: rank 0 sum 3"));
    CHECK(rank0.printed("standby_job: rank 0 finalized"));
    for (Proc *p : {&rank0, &promoted}) {
        const auto st = job.exit_of(*p);
        CHECK_MESSAGE(st.state == "exited", p->name);
        CHECK_MESSAGE(st.exit_code == 0, p->name);
        CHECK_MESSAGE(st.mpi_state == "finalized", p->name);
    }
}

}  // namespace

// Plays ftmpirun's part once the survivor asks for a replacement of rank 1:
// `promote` to standby 0, then `respawned` for the survivors.
void promote_standby(Job &job) {
    const int round = job.wait_respawn();
    CHECK(round >= 1);
    job.publish(pack_promote(0, round, 1, 1));
    job.publish(pack_respawned(round, 1, 1, job.member()));
}

TEST_CASE("a waiting standby is promoted to replace a killed rank; MPI_Init returns MPI_INIT_RESTARTED_NODE") {
    auto vm = start_services_vm();
    Job job(vm[0], "standby-wait-");
    job.make_wireup_dir();
    Proc &standby = job.standby();
    Proc &rank0 = job.rank(0);
    Proc &rank1 = job.rank(1);
    job.until_printed(rank0, "standby_job: rank 0 of 2 initialized");
    job.until_printed(rank1, "standby_job: rank 1 of 2 initialized");

    // Waiting, the standby is no rank: no contact record, no lifecycle
    // word, nothing printed.
    CHECK(job.wireup_records() == std::set<std::string>{"0", "1"});
    job.read(standby, 0ms);
    CHECK(standby.out.empty());
    CHECK(standby.err.empty());
    CHECK(job.status(standby).state == "running");
    CHECK(job.status(standby).mpi_state.empty());

    // Promotes it can not act on: another standby's, and one whose fields
    // do not parse (ignored with one warning).
    Packer malformed;
    malformed.str("promote").i32(0);
    job.publish(malformed.take());
    job.publish(pack_promote(1, 1, 1, 1));

    job.kill(rank1);
    promote_standby(job);
    check_job_result(job, rank0, standby);
    INFO(job.dump());
    REQUIRE(standby.err.size() == 1);
    CHECK(standby.err[0].find("standby 0] warn: standby 0: ignoring event") != std::string::npos);
    CHECK(standby.err[0].find("a promote event whose fields do not parse") != std::string::npos);
}

TEST_CASE("a standby started after its promote was published finds it in the topic's history") {
    auto vm = start_services_vm();
    Job job(vm[0], "standby-late-");
    job.make_wireup_dir();
    Proc &rank0 = job.rank(0);
    Proc &rank1 = job.rank(1);
    job.until_printed(rank0, "standby_job: rank 0 of 2 initialized");
    job.until_printed(rank1, "standby_job: rank 1 of 2 initialized");
    job.kill(rank1);
    promote_standby(job);
    // Only now does the standby's process start (as one still loading would
    // see it): its promote is already in the topic.
    Proc &standby = job.standby();
    check_job_result(job, rank0, standby);
    INFO(job.dump());
    CHECK(standby.err.empty());
}

TEST_CASE("a standby never promoted gives up after FTMPI_STANDBY_MS with status 1 and one line") {
    auto vm = start_services_vm();
    Job job(vm[0], "standby-unused-");
    job.make_wireup_dir();
    Proc &standby = job.start("standby.0", {"FTMPI_RANK=0", "FTMPI_STANDBY=0", "FTMPI_STANDBY_MS=300"});
    job.finish(standby, 20s);
    INFO(job.dump());
    const auto st = job.exit_of(standby);
    CHECK(st.state == "exited");
    CHECK(st.exit_code == 1);
    CHECK(st.mpi_state.empty());
    CHECK(standby.out.empty());
    REQUIRE(standby.err.size() == 1);
    CHECK(standby.err[0].find("hot standby 0 leaves the job: not promoted within FTMPI_STANDBY_MS=300") !=
          std::string::npos);
    CHECK(job.wireup_records().empty());
}

TEST_CASE("a standby whose daemon does not answer leaves after FTMPI_DAEMON_LOST_MS with status 1 and one line") {
    test::TempDir dir("ftmpi-standby-nodaemon");
    const auto port = test::free_port();  // nobody listens there
    auto r = it::run_program({STANDBY_JOB_PATH}, 30s,
                             {"HARNESS_HCORE=127.0.0.1:" + std::to_string(port),
                              "HARNESS_KEY=" + (dir.path() / "no.key").string(), "FTMPI_JOB=nodaemon", "FTMPI_SIZE=2",
                              "FTMPI_WIREUP=dir:" + dir.path().string(), "FTMPI_COMM_MODE=rebuild", "FTMPI_RANK=0",
                              "FTMPI_STANDBY=0", "FTMPI_DAEMON_LOST_MS=300"});
    INFO("stdout:\n" << r.out << "stderr:\n" << r.err);
    CHECK(r.exit_code() == 1);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find("FT-MPI[job nodaemon standby 0] error: hot standby 0 leaves the job: its daemon has not "
                     "answered for 300 ms") != std::string::npos);
}
