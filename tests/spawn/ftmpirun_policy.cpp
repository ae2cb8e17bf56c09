// ftmpirun's fault-tolerance options and failure policy (no VM needed):
// mode names, bad values, the environment ranks get, what each kind of rank
// end does to the job in each mode, the job's status and summary, the job
// topic's events and where a replacement starts.
#include "failure_policy.hpp"
#include "ft_options.hpp"
#include "hosts.hpp"
#include "job_events.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::ftmpirun;

namespace {

RankExit killed(int rank, int sig = 9, int incarnation = 0) {
    return {rank, incarnation, -1, sig, false, {}};
}
RankExit exited(int rank, int status, int incarnation = 0) {
    return {rank, incarnation, status, 0, false, {}};
}
RankExit lost(int rank) {
    return {rank, 0, 0, 0, true, "its daemon m2 stopped answering"};
}
// An MPI rank's end as its daemon reports it (the lifecycle word).
RankExit mpi_exited(int rank, int status, const char *mpi_state) {
    return {rank, 0, status, 0, false, {}, mpi_state};
}

bool contains(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("comm and message modes: every spelling round-trips, anything else is refused with the list") {
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
    CHECK(bad.error().message ==
          "--comm-mode SHRINK: not a mode (one of ulfm, abort, blank, shrink, rebuild, "
          "rebuild-append)");
    auto empty = parse_msg_mode("");
    REQUIRE_FALSE(empty.ok());
    CHECK(contains(empty.error().message, "--msg-mode '': not a mode (one of cont, nop)"));
}

TEST_CASE("the environment of every rank and of a replacement") {
    FtOptions plain;
    CHECK(ft_environment(plain) == std::vector<std::string>{"FTMPI_COMM_MODE=ulfm", "FTMPI_MSG_MODE=cont"});
    FtOptions all{CommMode::rebuild_append, MsgMode::nop, true, true};
    CHECK(ft_environment(all) ==
          std::vector<std::string>{"FTMPI_COMM_MODE=rebuild-append", "FTMPI_MSG_MODE=nop", "FTMPI_COLL_STRICT=1",
                                   "FTMPI_NOTIFIER=ordered"});
    CHECK(replacement_environment(2, 5) ==
          std::vector<std::string>{"FTMPI_RESTARTED=1", "FTMPI_INCARNATION=2", "FTMPI_ROUND=5"});
}

TEST_CASE("abort mode: any failure aborts; other modes: only a rank's own non-zero exit does") {
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
        CHECK(decide(exited(1, 3), m) == OnRankExit::abort_job);  // MPI_Abort, fatal error handler
    }
}

TEST_CASE("an exit without MPI_Finalize is a process failure in the fault-tolerant modes, with any status") {
    for (int status : {0, 1, 7}) {
        CAPTURE(status);
        RankExit x = mpi_exited(2, status, "initialized");
        CHECK(x.failed());
        CHECK(x.unfinalized());
        CHECK(decide(x, CommMode::abort) == OnRankExit::abort_job);
        for (auto m : {CommMode::ulfm, CommMode::blank, CommMode::shrink, CommMode::rebuild, CommMode::rebuild_append})
            CHECK(decide(x, m) == OnRankExit::keep_running);
        CHECK(x.describe() == "rank 2 exited with status " + std::to_string(status) + " before MPI_Finalize");
        CHECK(x.shell_status() == (status ? status : 1));
    }
    // After MPI_Finalize an exit is a normal end whatever its status …
    for (auto m : {CommMode::abort, CommMode::ulfm, CommMode::shrink}) {
        CHECK(decide(mpi_exited(1, 0, "finalized"), m) == OnRankExit::keep_running);
        CHECK(decide(mpi_exited(1, 3, "finalized"), m) == OnRankExit::keep_running);
    }
    CHECK_FALSE(mpi_exited(1, 3, "finalized").failed());
    // … and MPI_Abort ends the job in every mode.
    for (auto m : {CommMode::abort, CommMode::ulfm, CommMode::rebuild})
        CHECK(decide(mpi_exited(1, 4, "aborted"), m) == OnRankExit::abort_job);
    CHECK(mpi_exited(1, 4, "aborted").describe() == "rank 1 called MPI_Abort (status 4)");
}

TEST_CASE("status and summary: a rank exiting without MPI_Finalize, survived by the others") {
    JobOutcome job(5, 4, CommMode::ulfm);
    CHECK(job.record(mpi_exited(2, 1, "initialized")) == OnRankExit::keep_running);
    for (int r : {0, 1, 3}) job.record(mpi_exited(r, 0, "finalized"));
    CHECK(job.status() == 1);  // scripts still see the rank's status
    CHECK(job.finished_ranks() == 3);
    CHECK(job.summary() ==
          "job 5: rank 2 exited with status 1 before MPI_Finalize; the job continued (comm mode ulfm) "
          "and finished with 3 of 4 ranks");

    // exit(0) without MPI_Finalize: a failure, but no status to report.
    JobOutcome zero(6, 2, CommMode::shrink);
    zero.record(mpi_exited(1, 0, "initialized"));
    zero.record(mpi_exited(0, 0, "finalized"));
    CHECK(zero.status() == 0);
    CHECK(contains(zero.summary(), "rank 1 exited with status 0 before MPI_Finalize; the job continued"));

    // A non-zero status after MPI_Finalize is not a failure, but it is the job's status.
    JobOutcome late(7, 2, CommMode::ulfm);
    late.record(mpi_exited(0, 0, "finalized"));
    late.record(mpi_exited(1, 9, "finalized"));
    CHECK(late.status() == 9);
    CHECK(late.summary().empty());

    // Abort mode: exit(0) without MPI_Finalize ends the job with status 1.
    JobOutcome part1(8, 2, CommMode::abort);
    CHECK(part1.record(mpi_exited(1, 0, "initialized")) == OnRankExit::abort_job);
    CHECK(part1.status() == 1);
}

TEST_CASE("status and summary: a killed rank survived by the others") {
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

TEST_CASE("status and summary: a replaced rank counts by its replacement") {
    JobOutcome job(8, 3, CommMode::rebuild);
    job.record(lost(1));
    job.replacement_started(1);
    job.record(exited(0, 0));
    job.record(exited(2, 0));
    job.record(exited(1, 0, 1));
    CHECK(job.status() == 0);
    CHECK(job.finished_ranks() == 3);
    CHECK(contains(job.summary(),
                   "job 8: rank 1 was lost: its daemon m2 stopped answering; the job continued (comm "
                   "mode rebuild), 1 replacement started, and finished with 3 of 3 ranks"));
    // A replacement that itself fails is a failure like any other.
    JobOutcome twice(9, 2, CommMode::rebuild);
    twice.record(killed(1));
    twice.record(exited(1, 4, 1));
    CHECK(twice.status() == 4);
    CHECK(contains(twice.summary(), "rank 1.1 exited with status 4; the job was aborted"));
}

TEST_CASE("status: an own non-zero exit wins; nobody finishing is a failure; nothing failed is silent") {
    JobOutcome aborted(1, 3, CommMode::ulfm);
    aborted.record(killed(0));
    aborted.record(exited(1, 5));
    aborted.record(killed(2));  // killed by ftmpirun's abort
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

TEST_CASE("job topic events: a spawn request's lowest base (numbers given to another job's processes)") {
    SpawnRequest r;
    r.id = "0.1";
    r.leader = 0;
    r.apps.push_back(SpawnApp{"prog", {"a"}, 2, "", ""});
    r.lowest_base = 7;
    auto with = parse_job_event(pack_spawn(r));
    REQUIRE(with.spawn);
    CHECK(with.spawn->lowest_base == 7);
    CHECK(with.spawn->apps.size() == 1);
    // A request of a library that does not send it: no constraint.
    Packer older;
    older.str("spawn").str(r.id).i32(r.leader).i32(1).str("prog").i32(1).str("a").i32(2).str("").str("");
    auto without = parse_job_event(older.take());
    REQUIRE(without.spawn);
    CHECK(without.spawn->lowest_base == 0);
    r.lowest_base = -1;
    CHECK(parse_job_event(pack_spawn(r)).malformed == "spawn");
}

TEST_CASE("job topic events: fence and respawn parse; ftmpirun's own events have the contract's fields") {
    auto fence = parse_job_event(pack_fence(3, 1, 0, "no answer for 3000 ms"));
    REQUIRE(fence.fence);
    CHECK(fence.fence->rank == 3);
    CHECK(fence.fence->incarnation == 1);
    CHECK(fence.fence->by_rank == 0);
    CHECK(fence.fence->why == "no answer for 3000 ms");
    CHECK_FALSE(fence.respawn);

    auto respawn = parse_job_event(pack_respawn(4, {1, 5}));
    REQUIRE(respawn.respawn);
    CHECK(respawn.respawn->round == 4);
    CHECK(respawn.respawn->ranks == std::vector<int>{1, 5});

    // Truncated and negative fields are malformed, other kinds are nothing to do.
    Bytes cut = pack_respawn(4, {1, 5});
    cut.resize(cut.size() - 2);
    CHECK(parse_job_event(cut).malformed == "respawn");
    CHECK(parse_job_event(pack_fence(-1, 0, 0, "")).malformed == "fence");
    auto other = parse_job_event(pack_rank_lost(2, 0, "m", "gone"));
    CHECK((!other.fence && !other.respawn && other.malformed.empty()));
    CHECK(parse_job_event({}).malformed.empty());

    // (The buffers outlive their readers: an Unpacker only looks at them.)
    const Bytes lost_event = pack_rank_lost(2, 1, "abc", "its daemon abc was declared failed");
    Unpacker lost(lost_event);
    std::string kind, member, why;
    std::int32_t rank = 0, inc = 0;
    REQUIRE((lost.str(kind) && lost.i32(rank) && lost.i32(inc) && lost.str(member) && lost.str(why)));
    CHECK((kind == "rank_lost" && rank == 2 && inc == 1 && member == "abc" && lost.done()));
    const Bytes done_event = pack_respawned(3, 2, 2, "def");
    Unpacker done(done_event);
    std::int32_t round = 0;
    REQUIRE((done.str(kind) && done.i32(round) && done.i32(rank) && done.i32(inc) && done.str(member)));
    CHECK((kind == "respawned" && round == 3 && rank == 2 && inc == 2 && member == "def" && done.done()));
    const Bytes failed_event = pack_respawn_failed(3, 2, "no alive daemon left");
    Unpacker failed(failed_event);
    REQUIRE((failed.str(kind) && failed.i32(round) && failed.i32(rank) && failed.str(why)));
    CHECK((kind == "respawn_failed" && why == "no alive daemon left" && failed.done()));
}

TEST_CASE("a replacement goes to the failed rank's daemon while it lives, else to the least loaded one") {
    std::vector<Candidate> alive{{"a", 2}, {"b", 1}, {"c", 1}};
    CHECK(choose_replacement_host("a", true, alive) == "a");
    CHECK(choose_replacement_host("x", false, alive) == "b");  // fewest; the first on a tie
    CHECK_FALSE(choose_replacement_host("x", false, {}).has_value());
}
