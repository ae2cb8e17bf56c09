// vm/spawn_notify with the other VM services loaded: every exit of a process
// spawned with a notify_topic is published to vm/events in the contract's
// format (normal exit and a signal), and ftmpirun takes its job id from
// vm/naming and its ranks' exits land on topic job/<id>.
#include "spawn_support.hpp"

#include <harness/common/pack.hpp>

#include <doctest/doctest.h>

#include <csignal>
#include <set>

using namespace harness;
using namespace harness::spawn_test;

namespace {

struct ProcExit {
    std::string kind, member, tag;
    std::int64_t handle = 0, pid = 0;
    std::int32_t exit_code = 0, signal = 0;
};

// Fetches topic until n events are there (long polls, with a deadline).
std::vector<ProcExit> fetch_exits(hlib::VirtualMachine &vm, const std::string &topic, std::size_t n) {
    std::vector<ProcExit> got;
    std::int64_t after = 0;
    auto deadline = std::chrono::steady_clock::now() + 30s;
    while (got.size() < n) {
        REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "only " << got.size() << " events on " << topic);
        Packer args;
        args.str(topic).i64(after).i64(1000).i64(100);
        auto r = vm.local().call(ComponentName{"vm", "events"}, "fetch", args.view(), HARNESS_CALL_PACKED,
                                 HARNESS_MODE_DEFAULT, hlib::deadline_in(10s));
        REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
        Unpacker u(*r);
        std::int64_t count = 0;
        REQUIRE(u.i64(count));
        for (std::int64_t i = 0; i < count; ++i) {
            std::int64_t seq = 0;
            Bytes payload;
            REQUIRE(u.i64(seq));
            REQUIRE(u.bytes(payload));
            after = seq;
            Unpacker p(payload);
            ProcExit e;
            REQUIRE(p.str(e.kind));
            REQUIRE(p.str(e.member));
            REQUIRE(p.i64(e.handle));
            REQUIRE(p.i64(e.pid));
            REQUIRE(p.str(e.tag));
            REQUIRE(p.i32(e.exit_code));
            REQUIRE(p.i32(e.signal));
            // The lifecycle word: empty, these processes never call MPI_Init.
            std::string mpi_state = "?";
            REQUIRE(p.str(mpi_state));
            CHECK(mpi_state.empty());
            CHECK(p.done());
            got.push_back(e);
        }
    }
    return got;
}

std::unique_ptr<test::Daemon> start_with_all_services() {
    test::DaemonOptions o;
    o.services = test::kAllServices;
    o.ready_timeout = 30s;
    return test::Daemon::start(o);
}

}  // namespace

TEST_CASE("exits are published to vm/events as proc_exit") {
    auto d = start_with_all_services();
    auto c = client_of(*d);
    auto vm = it::connect(*d);
    auto four = c.spawn({{"sh", "-c", "exit 4"}, {}, "", "r0", "job/spawn-test"});
    REQUIRE_MESSAGE(four.ok(), (four ? "" : four.error().describe()));
    wait_exit(c, four->handle);
    auto killed = c.spawn({{"sleep", "100"}, {}, "", "r1", "job/spawn-test"});
    REQUIRE(killed.ok());
    REQUIRE(c.signal(killed->handle, SIGKILL, false).ok());
    // Without a topic nothing is published.
    auto quiet = c.spawn({{"true"}, {}, "", "r2", ""});
    REQUIRE(quiet.ok());

    auto events = fetch_exits(vm, "job/spawn-test", 2);
    REQUIRE(events.size() == 2);
    CHECK(events[0].kind == "proc_exit");
    CHECK(events[0].member == d->id());
    CHECK(events[0].handle == four->handle);
    CHECK(events[0].pid == four->pid);
    CHECK(events[0].tag == "r0");
    CHECK(events[0].exit_code == 4);
    CHECK(events[0].signal == 0);
    CHECK(events[1].handle == killed->handle);
    CHECK(events[1].tag == "r1");
    CHECK(events[1].exit_code == -1);
    CHECK(events[1].signal == SIGKILL);
}

TEST_CASE("ftmpirun takes its job id from vm/naming and its ranks' exits reach job/<id>") {
    auto d = start_with_all_services();
    auto vm = it::connect(*d);
    auto r = it::run_program({FTMPIRUN_PATH, "--hcore", d->tcp().to_string(), "--key", d->key_file().string(), "-np",
                              "2", "sh", "-c", "echo job=$FTMPI_JOB"},
                             60s);
    INFO(r.err);
    REQUIRE_FALSE(r.timed_out);
    CHECK(r.exit_code() == 0);
    CHECK(r.err.find("not available") == std::string::npos);
    auto at = r.out.find("job=");
    REQUIRE(at != std::string::npos);
    std::string job = r.out.substr(at + 4, r.out.find('\n', at) - at - 4);
    auto events = fetch_exits(vm, "job/" + job, 2);
    std::set<std::string> tags{events[0].tag, events[1].tag};
    CHECK(tags == std::set<std::string>{"0", "1"});
    CHECK(events[0].exit_code == 0);
}
