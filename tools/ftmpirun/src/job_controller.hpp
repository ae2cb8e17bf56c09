// job_controller.hpp — one running job as its controller (run_job's thread,
// job.cpp) holds it: the job's processes, its connections to the daemons,
// the recovery plans waiting for the survivors' respawn requests, and what
// the controller does with each event the job's threads report.
//
// job_controller.cpp starts the job and handles the events: processes that
// end, daemons the VM declares failed, fence requests and MPI_Comm_spawn.
// job_respawn.cpp is the recovery side: the policy's plan for a failed rank
// (job_recovery.hpp), fencing the ranks a slide moves, replacements started
// at the survivors' respawn request, and hot standbys (placed at the start,
// promoted to a rank, dismissed at the end).
//
// Only the controller's thread touches a Job: the followers get a copy of
// their Process and report through the Inbox.
#pragma once

#include "failure_policy.hpp"
#include "hosts.hpp"
#include "job.hpp"
#include "job_events.hpp"
#include "job_io.hpp"
#include "job_notices.hpp"
#include "job_process.hpp"
#include "job_recovery.hpp"
#include "spawn_client.hpp"

#include <harness/common/crypto.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace harness::ftmpirun {

class Job {
public:
    Job(const JobSpec &spec, Printer &printer, Inbox &inbox)
        : spec_(spec), printer_(printer), inbox_(inbox), notices_(spec, printer),
          outcome_(spec.job_id, static_cast<int>(spec.ranks.size()), spec.ft.comm_mode) {}

    // Starting and ending (job_controller.cpp).
    bool connect_daemons();
    bool prepare_wireup();
    void cleanup_wireup();
    std::optional<int> start_ranks();  // on failure, ftmpirun's status
    void start_followers();
    void kill_all(int sig);
    void finish_threads();
    int status(bool quiet);
    std::int64_t rank0_handle() const { return procs_.at(0).handle; }
    int live() const { return live_; }
    bool aborting() const { return aborting_; }

    // Everything the controller is told (job_controller.cpp).
    void handle(const Event &ev, bool stopping);
    // A follower saw its daemon stop answering before the VM declared it
    // failed: remember it, so a later declaration still publishes rank_lost.
    void note_lost_seen(std::size_t i) { lost_seen_.insert(i); }

    // Standbys that were never promoted end with the job (job_respawn.cpp).
    void dismiss_standbys();

    // Says which step of a recovery has been waited on for long (once per
    // step; job_stalls.cpp): called every few seconds by the controller.
    void note_stalls(std::chrono::steady_clock::time_point now);

private:
    // A process MPI_Comm_spawn asked for: what it runs and its place in its
    // own MPI_COMM_WORLD (its environment says the rest).
    struct Spawned {
        RankProgram program;
        int rank_in_world = 0;
        int world_size = 0;
    };

    // Processes and connections (job_controller.cpp).
    Result<spawn_client::Started> start_process(int rank, int incarnation, const RankPlace &where,
                                                const std::vector<std::string> &extra_env,
                                                const Spawned *spawned = nullptr, int standby = -1);
    Result<spawn_client::SpawnClient *> control_of(const RankPlace &where);
    void start_follower(std::size_t i);
    void reap_started();

    // Events (job_controller.cpp).
    void on_process_end(std::size_t i, RankExit x, bool stopping);
    void record(const Process &p, const RankExit &x, bool stopping);
    void publish(const Bytes &event, const std::string &what);
    void on_member_failed(const std::string &member, bool left, bool stopping);
    void on_fence(const FenceRequest &f);
    void on_spawn(const SpawnRequest &r, bool stopping);

    // Recovery (job_respawn.cpp).
    bool rebuilds() const {
        return spec_.ft.comm_mode == CommMode::rebuild || spec_.ft.comm_mode == CommMode::rebuild_append;
    }
    int host_index(const std::string &member) const;
    JobFacts facts() const;
    void plan_recovery(const Process &p, bool lost, int at_host = -1);
    void fence_moved(int rank);
    Process *latest_process(int rank);
    void on_respawn(const RespawnRequest &r);
    void respawn_one(int round, int rank);

    // Standbys (job_respawn.cpp).
    RankPlace standby_place() const;
    bool promote(int round, int rank, int incarnation, int standby);
    void after_promoted_failure(Process &p);

    // Recovery steps waited on (job_stalls.cpp).
    void await_respawn(int rank, int incarnation);
    std::string stall_context(int rank) const;

    // Where new processes may go (job_respawn.cpp; MPI_Comm_spawn uses them too).
    std::vector<RankPlace> alive_candidates() const;
    std::vector<Candidate> count_processes(const std::vector<RankPlace> &candidates) const;

    const JobSpec &spec_;
    Printer &printer_;
    Inbox &inbox_;
    JobNotices notices_;
    JobOutcome outcome_;
    std::map<std::string, spawn_client::SpawnClient> control_;  // one controller connection per daemon
    std::vector<Process> procs_;
    std::vector<std::thread> followers_;
    std::set<std::string> dead_;  // daemons the VM declared failed

    std::set<std::size_t> lost_seen_;
    std::set<std::pair<int, int>> respawned_;  // (round, rank) already handled
    std::map<int, RankPlan> plans_;            // rank → what its next respawn does (recovery policy)
    std::map<int, std::string> chosen_gaps_;   // rank → why: the policy chose to leave it out; never refilled
    std::map<std::string, std::vector<int>> fence_when_declared_;  // daemon → moved ranks to fence once it is declared
    // A recovery step ftmpirun waits on, since when, and whether its delay
    // was said (job_stalls.cpp).
    struct Awaited {
        int rank = 0;
        int incarnation = 0;
        std::chrono::steady_clock::time_point since;
        bool noted = false;
    };
    std::map<int, Awaited> awaiting_respawn_;               // rank → its failure seen, no respawn request for it yet
    std::map<std::size_t, Awaited> awaiting_init_;          // process → replacement started, MPI_Init not done yet
    int next_rank_ = static_cast<int>(spec_.ranks.size());  // the next spawned process's world rank
    // World ranks a spawn skipped (SpawnRequest::lowest_base): no process of
    // the job; spawned processes learn them (FTMPI_WORLD_GAPS).
    std::string world_gaps_;
    int spawns_ = 0;  // MPI_Comm_spawn requests served
    std::string wireup_ = "drd:";
    // Tells this job apart from a job of the same id in another VM on this
    // host (job ids count from 1 in each VM): names its shared-memory files.
    std::string job_key_ = [] {
        std::array<std::uint8_t, 8> bytes{};
        harness::random_bytes(bytes);
        return harness::to_hex(bytes);
    }();
    std::string wireup_dir_;
    std::string dir_member_;
    int live_ = 0;
    bool aborting_ = false;
};

}  // namespace harness::ftmpirun
