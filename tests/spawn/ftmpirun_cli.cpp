// ftmpirun end to end with real daemons and small shell programs as ranks:
// environment and output, tags, exit statuses (first failure, signals,
// timeout, missing program), slots, -x, stdin to rank 0, SIGTERM forwarded,
// and a private daemon when no VM is reachable.
#include "spawn_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>

using namespace harness;
using namespace harness::spawn_test;

namespace {

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

// ftmpirun against daemon d (by --hcore and --key).
it::RunResult ftmpirun(const test::Daemon &d, std::vector<std::string> args, std::chrono::milliseconds timeout = 30s,
                       std::vector<std::string> env = {}) {
    std::vector<std::string> argv{FTMPIRUN_PATH, "--hcore", d.tcp().to_string(), "--key", d.key_file().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = it::run_program(argv, timeout, env);
    INFO("ftmpirun stdout:\n" << r.out << "\nstderr:\n" << r.err);
    REQUIRE_FALSE(r.timed_out);
    return r;
}

}  // namespace

TEST_CASE("ranks get their job, rank, size and wire-up; output is forwarded; exit 0") {
    auto d = start_daemon();
    auto r = ftmpirun(*d,
                      {"--oversubscribe", "-np", "3", "sh", "-c",
                       "echo rank=$FTMPI_RANK size=$FTMPI_SIZE job=$FTMPI_JOB "
                       "wire=$FTMPI_WIREUP; echo err$FTMPI_RANK >&2"});
    CHECK(r.exit_code() == 0);
    auto out = lines_of(r.out);
    std::sort(out.begin(), out.end());
    REQUIRE(out.size() == 3);
    std::set<std::string> jobs;
    for (int i = 0; i < 3; ++i) {
        CHECK(out[i].rfind("rank=" + std::to_string(i) + " size=3 job=", 0) == 0);
        CHECK(contains(out[i], "wire=dir:/tmp/ftmpi-job"));
        jobs.insert(out[i].substr(out[i].find("job="), out[i].find(" wire") - out[i].find("job=")));
    }
    CHECK(jobs.size() == 1);  // one job id for all ranks
    for (int i = 0; i < 3; ++i) CHECK(contains(r.err, "err" + std::to_string(i) + "\n"));
    // This daemon runs no naming service: the fallback is said, once.
    CHECK(contains(r.err, "vm/naming is not available"));
}

TEST_CASE("--tag-output prefixes [job,rank] and the stream") {
    auto d = start_daemon();
    auto r = ftmpirun(*d, {"--tag-output", "-np", "2", "sh", "-c", "echo hi; echo oops >&2"});
    CHECK(r.exit_code() == 0);
    auto out = lines_of(r.out);
    REQUIRE(out.size() == 2);
    for (const auto &line : out) {
        CHECK(line.front() == '[');
        CHECK(contains(line, "]<stdout>:hi"));
    }
    CHECK((contains(r.out, ",0]<stdout>:hi") && contains(r.out, ",1]<stdout>:hi")));
    CHECK(contains(r.err, ",1]<stderr>:oops"));
}

TEST_CASE("the first failing rank's status aborts the job and becomes ftmpirun's") {
    auto d = start_daemon();
    // Rank 1 fails at once; the others would sleep for 100 s unless killed.
    auto r = ftmpirun(
        *d, {"--oversubscribe", "-np", "3", "sh", "-c", "if [ $FTMPI_RANK = 1 ]; then exit 3; fi; exec sleep 100"},
        20s);
    CHECK(r.exit_code() == 3);
    CHECK(contains(r.err, "rank 1"));
    CHECK(contains(r.err, "exited with status 3; aborting job"));
    // Nothing of the job is left running on the daemon.
    CHECK(zombie_children(d->pid()).empty());
}

TEST_CASE("comm mode abort: a rank killed by a signal aborts the job with 128+signal") {
    auto d = start_daemon();
    auto r = ftmpirun(*d,
                      {"--comm-mode", "abort", "-np", "2", "sh", "-c",
                       "if [ $FTMPI_RANK = 0 ]; then kill -KILL $$; fi; exec sleep 100"},
                      20s);
    CHECK(r.exit_code() == 128 + 9);
    CHECK(contains(r.err, "rank 0 (daemon " + d->id() + ") was killed by SIGKILL; aborting job"));
}

TEST_CASE("fault-tolerant modes: a killed rank does not end the job; the others finish it with status 0") {
    auto d = start_daemon();
    // Rank 0 is killed at once; rank 1 outlives it and ends normally (it
    // waits until rank 0's process is gone, so the order is certain).
    std::string rank = "if [ $FTMPI_RANK = 0 ]; then echo $$ > pid0; kill -KILL $$; fi; "
                       "until [ -s pid0 ] && ! kill -0 $(cat pid0) 2>/dev/null; do sleep 0.02; done; echo done1";
    test::TempDir dir("ftmpirun-ft");
    for (std::string mode : {"ulfm", "shrink"}) {
        CAPTURE(mode);
        std::filesystem::remove(dir.path() / "pid0");
        auto r = ftmpirun(*d, {"--comm-mode", mode, "--wdir", dir.path().string(), "-np", "2", "sh", "-c", rank}, 20s);
        CHECK(r.exit_code() == 0);
        CHECK(contains(r.out, "done1"));
        CHECK(contains(r.err, "rank 0 (daemon " + d->id() + ") was killed by SIGKILL; job "));
        CHECK(contains(r.err, " continues (comm mode " + mode + ")"));
        CHECK(contains(r.err, "the job continued (comm mode " + mode + ") and finished with 1 of 2 ranks"));
    }
    // A rank that exits non-zero by itself still aborts the job in these modes.
    auto bad = ftmpirun(
        *d, {"--comm-mode", "blank", "-np", "2", "sh", "-c", "if [ $FTMPI_RANK = 1 ]; then exit 6; fi; exec sleep 100"},
        20s);
    CHECK(bad.exit_code() == 6);
    CHECK(contains(bad.err, "rank 1 (daemon " + d->id() + ") exited with status 6; aborting job"));
}

TEST_CASE("fault-tolerance options reach every rank's environment; bad values are refused") {
    auto d = start_daemon();
    std::string show = "echo $FTMPI_RANK:$FTMPI_COMM_MODE:$FTMPI_MSG_MODE:${FTMPI_COLL_STRICT-unset}:"
                       "${FTMPI_NOTIFIER-unset}:${FTMPI_RESTARTED-unset}";
    auto plain = ftmpirun(*d, {"-np", "2", "sh", "-c", show});
    CHECK(plain.exit_code() == 0);
    CHECK(contains(plain.out, "0:ulfm:cont:unset:unset:unset"));
    CHECK(contains(plain.out, "1:ulfm:cont:unset:unset:unset"));
    auto all = ftmpirun(*d,
                        {"--comm-mode", "rebuild-append", "--msg-mode", "nop", "--strict-collectives",
                         "--ordered-notifier", "-np", "2", "sh", "-c", show});
    CHECK(all.exit_code() == 0);
    CHECK(contains(all.out, "0:rebuild-append:nop:1:ordered:unset"));
    CHECK(contains(all.out, "1:rebuild-append:nop:1:ordered:unset"));

    auto bad_comm = ftmpirun(*d, {"--comm-mode", "sometimes", "-np", "1", "true"});
    CHECK(bad_comm.exit_code() == 1);
    CHECK(contains(bad_comm.err,
                   "ftmpirun: --comm-mode sometimes: not a mode (one of ulfm, abort, blank, shrink, "
                   "rebuild, rebuild-append)"));
    auto bad_msg = ftmpirun(*d, {"--msg-mode", "CONT", "-np", "1", "true"});
    CHECK(bad_msg.exit_code() == 1);
    CHECK(contains(bad_msg.err, "--msg-mode CONT: not a mode (one of cont, nop)"));
    auto missing = ftmpirun(*d, {"-np", "1", "true", "--comm-mode"});  // after the program: the program's
    CHECK(missing.exit_code() == 0);
}

TEST_CASE("--timeout kills the job with status 124") {
    auto d = start_daemon();
    auto r = ftmpirun(*d, {"--timeout", "0.5", "-np", "2", "sleep", "100"}, 20s);
    CHECK(r.exit_code() == 124);
    CHECK(contains(r.err, "timed out"));
}

TEST_CASE("user errors: no such program, too many ranks, bad options, no VM") {
    auto d = start_daemon();
    auto missing = ftmpirun(*d, {"-np", "2", "/no/such/program"});
    CHECK(missing.exit_code() == 127);
    CHECK(contains(missing.err, "cannot start rank 0"));
    CHECK(contains(missing.err, "/no/such/program"));

    auto slots = ftmpirun(*d, {"--host", d->id() + ":2", "-np", "3", "true"});
    CHECK(slots.exit_code() == 1);
    CHECK(contains(slots.err, "not enough slots: 3 ranks for 2 slots"));
    auto over = ftmpirun(*d, {"--host", d->id() + ":2", "--oversubscribe", "-np", "3", "true"});
    CHECK(over.exit_code() == 0);

    auto unknown = ftmpirun(*d, {"--host", "nosuchdaemon", "-np", "1", "true"});
    CHECK(unknown.exit_code() == 1);
    CHECK(contains(unknown.err, "is no alive daemon"));

    auto no_np = ftmpirun(*d, {"true"});
    CHECK(no_np.exit_code() == 1);

    // A --hcore where nobody listens is an error, not a private daemon.
    auto port = test::free_port();
    auto none = it::run_program({FTMPIRUN_PATH, "--hcore", "127.0.0.1:" + std::to_string(port), "--key",
                                 d->key_file().string(), "-np", "1", "true"},
                                20s);
    CHECK(none.exit_code() == 1);
    CHECK(contains(none.err, "no VM at 127.0.0.1:" + std::to_string(port)));
}

TEST_CASE("-x exports, stdin goes to rank 0 only, program arguments pass untouched") {
    auto d = start_daemon();
    auto r = ftmpirun(*d,
                      {"-x", "FOO=bar", "-x", "FROM_HERE", "-np", "2", "sh", "-c",
                       "echo $FTMPI_RANK:$FOO:$FROM_HERE; cat | sed \"s/^/in$FTMPI_RANK:/\"", "--not-an-option"},
                      30s, {"FROM_HERE=yes"});
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "0:bar:yes"));
    CHECK(contains(r.out, "1:bar:yes"));

    // Through a shell pipe, so ftmpirun's stdin has data.
    std::string cmd = std::string(FTMPIRUN_PATH) + " --hcore " + d->tcp().to_string() + " --key " +
        d->key_file().string() + " -np 2 sh -c 'cat | sed \"s/^/in$FTMPI_RANK:/\"'";
    auto piped = it::run_program({"/bin/sh", "-c", "printf 'one\\ntwo\\n' | " + cmd}, 30s);
    INFO(piped.err);
    CHECK(piped.exit_code() == 0);
    CHECK(lines_of(piped.out) == std::vector<std::string>{"in0:one", "in0:two"});
}

TEST_CASE("SIGTERM to ftmpirun reaches every rank") {
    auto d = start_daemon();
    test::TempDir dir("ftmpirun-term");
    auto out = (dir.path() / "out").string();
    // Each rank says it is ready and exits 5 on SIGTERM. The shell waits
    // until both are ready, then signals ftmpirun.
    std::string rank =
        "trap \"echo term$FTMPI_RANK; exit 5\" TERM; echo ready$FTMPI_RANK; while :; do sleep 0.05; done";
    std::string cmd = std::string(FTMPIRUN_PATH) + " --hcore " + d->tcp().to_string() + " --key " +
        d->key_file().string() + " -np 2 sh -c '" + rank + "' > " + out + " & p=$!; " + "until grep -q ready0 " + out +
        " && grep -q ready1 " + out + "; do sleep 0.02; done; " + "kill -TERM $p; wait $p; echo status=$?; cat " + out;
    auto r = it::run_program({"/bin/sh", "-c", cmd}, 30s);
    INFO(r.out << r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(contains(r.out, "status=5"));
    CHECK(contains(r.out, "term0"));
    CHECK(contains(r.out, "term1"));
}

TEST_CASE("with no VM reachable, ftmpirun runs the job on a private daemon and stops it") {
    test::TempDir root("ftmpirun-noroot");
    // Only spawn_notify in the private daemon: this test is about ftmpirun.
    auto r = it::run_program({FTMPIRUN_PATH, "--root", root.path().string(), "-np", "2", "sh", "-c",
                              "echo private$FTMPI_RANK $HARNESS_MEMBER"},
                             60s, {"HARNESS_SERVICES=vm/spawn_notify"});
    INFO(r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(contains(r.out, "private0 "));
    CHECK(contains(r.out, "private1 "));
    // Nothing was written to the given root: the private daemon had its own.
    CHECK(std::filesystem::is_empty(root.path()));
}

TEST_CASE("ranks are placed by slot over two daemons and wire up through the DRD") {
    test::TempDir keys("ftmpirun-keys");
    auto key = test::write_vm_key(keys.path() / "vm.key");
    test::DaemonOptions oa;
    oa.services = "vm/spawn_notify";
    oa.key_file = key;
    auto a = test::Daemon::start(oa);
    test::DaemonOptions ob = oa;
    ob.extra_args = {"--join", a->tcp().to_string()};
    auto b = test::Daemon::start(ob);
    auto vm = it::connect(*a);
    REQUIRE(it::wait_for_alive_members(vm, 2, 10s));

    auto r = ftmpirun(*a,
                      {"--host", a->id() + ":2," + b->tcp().to_string() + ":2", "-np", "4", "sh", "-c",
                       "echo $FTMPI_RANK $HARNESS_MEMBER $FTMPI_WIREUP"});
    CHECK(r.exit_code() == 0);
    auto out = lines_of(r.out);
    std::sort(out.begin(), out.end());
    REQUIRE(out.size() == 4);
    CHECK(out[0] == "0 " + a->id() + " drd:");
    CHECK(out[1] == "1 " + a->id() + " drd:");
    CHECK(out[2] == "2 " + b->id() + " drd:");
    CHECK(out[3] == "3 " + b->id() + " drd:");
}
