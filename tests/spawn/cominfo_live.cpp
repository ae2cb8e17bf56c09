// tools/cominfo against a real job: a daemon with every VM service, an MPI
// job of 4 ranks (cominfo_job.c, comm mode SHRINK) started by ftmpirun, one
// rank killed with kill -9 from here. cominfo must show, within the
// detection time, the killed rank failed and the communicator DETECTED;
// then the recovery (SHRINK) and, with --history, the failure and the
// recovery with its duration. The --json shapes checked here are the ones
// docs/cominfo.md documents.
#include "spawn_support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <future>
#include <optional>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace harness;
using namespace harness::spawn_test;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

struct Cominfo {
    const it::Vm &vm;
    it::RunResult run(std::vector<std::string> args) const {
        std::vector<std::string> argv{COMINFO_PATH, "--hcore", vm.daemons[0]->tcp().to_string(), "--key",
                                      vm.key_file.string()};
        argv.insert(argv.end(), args.begin(), args.end());
        return it::run_program(argv, 20s);
    }
    json doc(std::vector<std::string> args) const {
        auto j = try_doc(args);
        REQUIRE_MESSAGE(!j.is_null(), "cominfo " << last_error);
        return j;
    }
    // null while there is nothing to show yet (the ranks have not reported).
    json try_doc(std::vector<std::string> args) const {
        args.push_back("--json");
        auto r = run(args);
        if (!r.exited_ok()) {
            last_error = "exit " + std::to_string(r.exit_code()) + ": " + r.err;
            return nullptr;
        }
        auto j = json::parse(r.out, nullptr, false);
        if (j.is_discarded()) {
            last_error = "not JSON: " + r.out;
            return nullptr;
        }
        return j;
    }
    mutable std::string last_error;
};

const json *comm_named(const json &view, const std::string &name) {
    for (const auto &c : view["communicators"])
        if (c.value("name", "") == name) return &c;
    return nullptr;
}

std::string cell_state(const json &comm, int world) {
    for (const auto &cell : comm["cells"])
        if (cell.value("world", -1) == world) return cell.value("state", "");
    return "";
}

// The documented keys of `cominfo --json` (docs/cominfo.md).
void check_view_shape(const json &v) {
    for (const char *k : {"job", "world_size", "started_ms", "updated_ms", "ranks", "communicators", "notes"})
        CHECK_MESSAGE(v.contains(k), k);
    for (const auto &r : v["ranks"]) {
        CHECK(r["rank"].is_number_integer());
        CHECK(r["state"].is_string());
        if (r["state"] != "not reported")
            for (const char *k : {"incarnation", "pid", "member", "host", "processes", "updated_ms"})
                CHECK_MESSAGE(r.contains(k), k);
    }
    for (const auto &c : v["communicators"]) {
        for (const char *k : {"id", "key", "name", "mode", "size", "inter", "state", "revoked", "cells", "reported_by"})
            CHECK_MESSAGE(c.contains(k), k);
        for (const auto &cell : c["cells"]) {
            CHECK(cell["rank"].is_number_integer());
            CHECK(cell["world"].is_number_integer());
            CHECK(cell["state"].is_string());
        }
    }
}

// cominfo --watch drawing into a file, so the test can read what it has
// drawn so far; SIGTERM ends it (it exits 0).
class Watcher {
public:
    Watcher(const it::Vm &vm, const std::string &job, std::filesystem::path file) : file_(std::move(file)) {
        args_ = {COMINFO_PATH,
                 "--hcore",
                 vm.daemons[0]->tcp().to_string(),
                 "--key",
                 vm.key_file.string(),
                 "--job",
                 job,
                 "--watch",
                 "--interval",
                 "200",
                 "--no-color"};
        std::vector<char *> argv;
        for (auto &a : args_) argv.push_back(a.data());
        argv.push_back(nullptr);
        const std::string out = file_.string();
        pid_ = ::fork();
        if (pid_ == 0) {  // only async-signal-safe calls until exec
            int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0) ::_exit(127);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        REQUIRE(pid_ > 0);
    }
    ~Watcher() { stop(); }
    std::string text() const {
        std::ifstream in(file_);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    // Exit status after SIGTERM (-1 when already stopped).
    int stop() {
        if (pid_ <= 0) return -1;
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

private:
    std::filesystem::path file_;
    std::vector<std::string> args_;
    pid_t pid_ = -1;
};

void touch(const std::filesystem::path &p) {
    std::ofstream(p) << "1\n";
}

bool wait_file(const std::filesystem::path &p, std::chrono::milliseconds timeout) {
    return test::wait_until([&] { return std::filesystem::exists(p); }, timeout);
}

}  // namespace

TEST_CASE("cominfo follows a job through a kill -9 and a SHRINK recovery") {
    auto args = it::fast_heartbeat_args();
    args.push_back("--services");
    args.push_back(test::kAllServices);
    auto vm = it::start_vm(1, args, 30s);
    Cominfo cominfo{vm};
    test::TempDir dir("cominfo-live");

    {  // before any job: a clear error
        auto r = cominfo.run({});
        CHECK(r.exit_code() == 1);
        CHECK(r.err.find("no job has reported") != std::string::npos);
        r = cominfo.run({"--job", "12345"});
        CHECK(r.exit_code() == 1);
        CHECK(r.err.find("no records of job 12345") != std::string::npos);
        CHECK(cominfo.run({"--json", "--watch"}).exit_code() == 2);
    }

    const auto argv =
        cominfo_job_command(FTMPIRUN_PATH, COMINFO_JOB_PATH, vm.daemons[0]->tcp(), vm.key_file, dir.path());
    auto job = std::async(std::launch::async, [argv] { return it::run_program(argv, 110s); });
    auto job_output = [&] {
        auto r = job.get();
        return "ftmpirun status " + std::to_string(r.exit_code()) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
    };
    if (!wait_file(dir.path() / "ready", 60s)) FAIL("the job did not start: " << job_output());

    // Every rank reports; "work" has 4 members, all OK.
    json view;
    bool healthy = test::wait_until(
        [&] {
            view = cominfo.try_doc({});
            if (view.is_null()) return false;
            const json *work = comm_named(view, "work");
            if (!work || (*work)["cells"].size() != 4 || (*work)["state"] != "OK") return false;
            for (const auto &r : view["ranks"])
                if (r["state"] != "running") return false;
            for (int w = 0; w < 4; ++w)
                if (cell_state(*work, w) != "OK") return false;
            return view["ranks"].size() == 4;
        },
        20s);
    CAPTURE(view.dump(2));
    CAPTURE(cominfo.last_error);
    REQUIRE(healthy);
    check_view_shape(view);
    const std::string job_id = view["job"];
    const json *world = comm_named(view, "MPI_COMM_WORLD");
    REQUIRE(world != nullptr);
    CHECK((*world)["mode"] == "shrink");
    CHECK((*world)["size"] == 4);
    // The table names the communicator and its states; no colours off a terminal.
    auto text = cominfo.run({"--job", job_id});
    CHECK(text.exited_ok());
    CHECK(text.out.find("work") != std::string::npos);
    CHECK(text.out.find("\x1b[") == std::string::npos);

    // cominfo --watch draws the healthy job, then (below) the failure.
    Watcher watch(vm, job_id, dir.path() / "watch.out");
    CHECK(test::wait_until([&] { return watch.text().find("[2 OK]") != std::string::npos; }, 10s));
    CHECK(watch.text().find("FAILED") == std::string::npos);

    // kill -9 rank 2; its cell and the communicator change within the
    // detection time (FTMPI_CONFIRM_MS, 3 s, bounds it; a local kill is
    // seen through spawn_notify much sooner) plus a report.
    const pid_t victim = view["ranks"][2]["pid"].get<pid_t>();
    REQUIRE(victim > 0);
    REQUIRE(::kill(victim, SIGKILL) == 0);
    const auto killed = Clock::now();
    bool seen = test::wait_until(
        [&] {
            view = cominfo.try_doc({"--job", job_id});
            const json *work = view.is_null() ? nullptr : comm_named(view, "work");
            return work && cell_state(*work, 2) == "FAILED" && (*work)["state"] != "OK" &&
                view["ranks"][2]["state"] == "failed";
        },
        10s);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - killed);
    CAPTURE(view.dump(2));
    REQUIRE(seen);
    MESSAGE("cominfo showed the failure " << took.count() << " ms after the kill");
    CHECK(took < 4000ms);
    check_view_shape(view);
    const json *work = comm_named(view, "work");
    CHECK((*work)["state"] == "DETECTED");  // the survivors wait for "recover" before they recover
    for (int w : {0, 1, 3}) CHECK(cell_state(*work, w) == "OK");
    // The watch redraws without being asked: the failed cell shows there too.
    CHECK(test::wait_until([&] { return watch.text().find("[2 FAILED]") != std::string::npos; }, 5s));
    CAPTURE(watch.text());
    CHECK(watch.stop() == 0);

    // The survivors recover "work" by SHRINK: 3 members, no longer DETECTED.
    touch(dir.path() / "recover");
    if (!wait_file(dir.path() / "recovered", 30s)) FAIL("the survivors did not recover: " << job_output());
    bool recovered = test::wait_until(
        [&] {
            view = cominfo.try_doc({"--job", job_id});
            const json *w = view.is_null() ? nullptr : comm_named(view, "work");
            return w && (*w)["size"] == 3 && (*w)["cells"].size() == 3 &&
                ((*w)["state"] == "RECOVERED" || (*w)["state"] == "OK");
        },
        10s);
    CAPTURE(view.dump(2));
    CHECK(recovered);

    touch(dir.path() / "finish");
    auto result = job.get();
    CAPTURE(result.out);
    CAPTURE(result.err);
    CHECK(result.exit_code() == 0);

    // After the job: the survivors' last records say finalized.
    view = cominfo.doc({"--job", job_id});
    CAPTURE(view.dump(2));
    for (int w : {0, 1, 3}) CHECK(view["ranks"][w]["state"] == "finalized");
    CHECK(view["ranks"][2]["state"] == "failed");

    // The timeline: the failure of world rank 2, seen by the three
    // survivors, then the SHRINK recovery of "work" with its duration.
    json h = cominfo.doc({"--job", job_id, "--history"});
    CAPTURE(h.dump(2));
    for (const char *k : {"job", "started_ms", "timeline", "events_dropped", "notes"}) CHECK_MESSAGE(h.contains(k), k);
    const json *failure = nullptr, *recovery = nullptr;
    for (const auto &e : h["timeline"]) {
        if (e["kind"] == "failure" && e["world"] == 2) failure = &e;
        if (e["kind"] == "recovery" && e["name"] == "work") recovery = &e;
    }
    REQUIRE(failure != nullptr);
    REQUIRE(recovery != nullptr);
    CHECK((*failure)["detected_by"].size() == 3);
    CHECK((*failure)["why"].get<std::string>().find("SIGKILL") != std::string::npos);
    CHECK((*recovery)["mode"] == "shrink");
    CHECK((*recovery)["ok"] == true);
    CHECK((*recovery)["size_before"] == 4);
    CHECK((*recovery)["size_after"] == 3);
    CHECK((*recovery)["ranks"].size() == 3);
    REQUIRE((*recovery)["duration_ms"].is_number_integer());
    CHECK((*recovery)["duration_ms"].get<std::int64_t>() >= 0);
    CHECK((*recovery)["start_ms"].get<std::int64_t>() >= (*failure)["time_ms"].get<std::int64_t>());
    auto timeline = cominfo.run({"--job", job_id, "--history"});
    CHECK(timeline.exited_ok());
    CAPTURE(timeline.out);
    CHECK(timeline.out.find("world rank 2 failed") != std::string::npos);
    CHECK(timeline.out.find("recovery by SHRINK") != std::string::npos);
    CHECK(timeline.out.find("took") != std::string::npos);
}

TEST_CASE("a finished job shows every rank finalized; FTMPI_COMINFO=0 reports nothing") {
    auto args = it::fast_heartbeat_args();
    args.push_back("--services");
    args.push_back(test::kAllServices);
    auto vm = it::start_vm(1, args, 30s);
    Cominfo cominfo{vm};
    auto run_job = [&](std::vector<std::string> extra) {
        std::vector<std::string> argv{FTMPIRUN_PATH,
                                      "--hcore",
                                      vm.daemons[0]->tcp().to_string(),
                                      "--key",
                                      vm.key_file.string(),
                                      "--timeout",
                                      "60",
                                      "--oversubscribe"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        argv.insert(argv.end(), {"-np", "3", MPI_HELLO_PATH});
        auto r = it::run_program(argv, 70s);
        CAPTURE(r.out);
        CAPTURE(r.err);
        REQUIRE(r.exit_code() == 0);
    };

    // Turned off: the job runs as usual and leaves no record.
    run_job({"-x", "FTMPI_COMINFO=0", "--tag-output"});
    auto none = cominfo.run({});
    CHECK(none.exit_code() == 1);
    CHECK(none.err.find("no job has reported") != std::string::npos);

    // On (the default): MPI_Finalize waited for each rank's last record.
    run_job({"--tag-output"});
    json view = cominfo.doc({});
    CAPTURE(view.dump(2));
    check_view_shape(view);
    REQUIRE(view["ranks"].size() == 3);
    for (const auto &r : view["ranks"]) CHECK(r["state"] == "finalized");
    const json *world = comm_named(view, "MPI_COMM_WORLD");
    REQUIRE(world != nullptr);
    CHECK((*world)["state"] == "OK");
    for (int w = 0; w < 3; ++w) CHECK(cell_state(*world, w) == "FINALIZED");
    json h = cominfo.doc({"--history"});
    CHECK(h["timeline"].empty());
}
