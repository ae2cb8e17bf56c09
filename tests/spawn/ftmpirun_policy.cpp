// ftmpirun's fault-tolerance options and failure policy (no VM needed):
// mode names, bad values, the environment ranks get, what each kind of rank
// end does to the job in each mode, and the job's status and summary.
#include "failure_policy.hpp"
#include "ft_options.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::ftmpirun;

namespace {

RankExit killed(int rank, int sig = 9, int incarnation = 0) { return {rank, incarnation, -1, sig, false, {}}; }
RankExit exited(int rank, int status, int incarnation = 0) { return {rank, incarnation, status, 0, false, {}}; }
RankExit lost(int rank) { return {rank, 0, 0, 0, true, "its daemon m2 stopped answering"}; }

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("comm and message modes: every spelling round-trips, anything else is refused with the list")
{
    for (auto m : {CommMode::ulfm, CommMode::abort, CommMode::blank, CommMode::shrink, CommMode::rebuild,
                   CommMode::rebuild_append}) {
        auto parsed = parse_comm_mode(to_string(m));
        REQUIRE(parsed.ok());
        CHECK(*parsed == m);
    }
    CHECK(to_string(CommMode::rebuild_append) == "rebuild-append");
    CHECK(*parse_msg_mode("nop") == MsgMode::nop);
    CHECK(*parse_msg_mode("cont") == MsgMode::cont);

    auto bad = parse_comm_mode("SHRINK");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == "--comm-mode SHRINK: not a mode (one of ulfm, abort, blank, shrink, rebuild, "
                                 "rebuild-append)");
    auto empty = parse_msg_mode("");
    REQUIRE_FALSE(empty.ok());
    CHECK(contains(empty.error().message, "--msg-mode '': not a mode (one of cont, nop)"));
}

TEST_CASE("the environment of every rank and of a replacement")
{
    FtOptions plain;
    CHECK(ft_environment(plain) == std::vector<std::string>{"FTMPI_COMM_MODE=ulfm", "FTMPI_MSG_MODE=cont"});
    FtOptions all{CommMode::rebuild_append, MsgMode::nop, true, true};
    CHECK(ft_environment(all) == std::vector<std::string>{"FTMPI_COMM_MODE=rebuild-append", "FTMPI_MSG_MODE=nop",
                                                          "FTMPI_COLL_STRICT=1", "FTMPI_NOTIFIER=ordered"});
    CHECK(replacement_environment(2, 5) ==
          std::vector<std::string>{"FTMPI_RESTARTED=1", "FTMPI_INCARNATION=2", "FTMPI_ROUND=5"});
}

TEST_CASE("abort mode: any failure aborts; other modes: only a rank's own non-zero exit does")
{
    CHECK(decide(exited(0, 0), CommMode::abort) == OnRankExit::keep_running);
    CHECK(decide(killed(1), CommMode::abort) == OnRankExit::abort_job);
    CHECK(decide(lost(1), CommMode::abort) == OnRankExit::abort_job);
    CHECK(decide(exited(1, 3), CommMode::abort) == OnRankExit::abort_job);
    for (auto m : {CommMode::ulfm, CommMode::blank, CommMode::shrink, CommMode::rebuild, CommMode::rebuild_append}) {
        CAPTURE(to_string(m));
        CHECK(decide(exited(0, 0), m) == OnRankExit::keep_running);
        CHECK(decide(killed(1), m) == OnRankExit::keep_running);
        CHECK(decide(killed(1, 15), m) == OnRankExit::keep_running);
        CHECK(decide(lost(1), m) == OnRankExit::keep_running);
        CHECK(decide(exited(1, 3), m) == OnRankExit::abort_job); // MPI_Abort, fatal error handler
    }
}

TEST_CASE("status and summary: a killed rank survived by the others")
{
    JobOutcome job(7, 4, CommMode::shrink);
    CHECK(job.record(exited(0, 0)) == OnRankExit::keep_running);
    CHECK(job.record(killed(2)) == OnRankExit::keep_running);
    job.record(exited(1, 0));
    job.record(exited(3, 0));
    CHECK(job.status() == 0);
    CHECK(job.finished_ranks() == 3);
    CHECK(job.summary() ==
          "job 7: rank 2 was killed by SIGKILL; the job continued (comm mode shrink) and finished with 3 of 4 ranks");
}

TEST_CASE("status and summary: a replaced rank counts by its replacement")
{
    JobOutcome job(8, 3, CommMode::rebuild);
    job.record(lost(1));
    job.replacement_started(1);
    job.record(exited(0, 0));
    job.record(exited(2, 0));
    job.record(exited(1, 0, 1));
    CHECK(job.status() == 0);
    CHECK(job.finished_ranks() == 3);
    CHECK(contains(job.summary(), "job 8: rank 1 was lost: its daemon m2 stopped answering; the job continued (comm "
                                  "mode rebuild), 1 replacement started, and finished with 3 of 3 ranks"));
    // A replacement that itself fails is a failure like any other.
    JobOutcome twice(9, 2, CommMode::rebuild);
    twice.record(killed(1));
    twice.record(exited(1, 4, 1));
    CHECK(twice.status() == 4);
    CHECK(contains(twice.summary(), "rank 1.1 exited with status 4; the job was aborted"));
}

TEST_CASE("status: an own non-zero exit wins; nobody finishing is a failure; nothing failed is silent")
{
    JobOutcome aborted(1, 3, CommMode::ulfm);
    aborted.record(killed(0));
    aborted.record(exited(1, 5));
    aborted.record(killed(2)); // killed by ftmpirun's abort
    CHECK(aborted.status() == 5);

    JobOutcome none(2, 2, CommMode::blank);
    none.record(killed(0, 2));
    none.record(killed(1, 2));
    CHECK(none.status() == 130);
    CHECK(contains(none.summary(), "no rank finished"));

    JobOutcome part1(3, 2, CommMode::abort);
    part1.record(killed(1));
    part1.record(killed(0));
    CHECK(part1.status() == 137);

    JobOutcome fine(4, 2, CommMode::ulfm);
    fine.record(exited(0, 0));
    fine.record(exited(1, 0));
    CHECK(fine.status() == 0);
    CHECK(fine.summary().empty());
}
