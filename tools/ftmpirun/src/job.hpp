// job.hpp — one running job: its ranks started through spawn_notify, their
// output forwarded line by line, stdin to rank 0, signals forwarded, the
// timeout, and the exit status.
//
// Fault tolerance (ftmpi/FT_CONTRACTS.md): a watcher polls the VM's member
// list and reports daemons declared failed (their ranks are published as
// `rank_lost` on job/<J>); a reader of job/<J> passes the ranks' `fence` and
// `respawn` requests (outside comm mode abort) and `spawn` requests
// (MPI_Comm_spawn) to the controller, which kills the fenced process or
// starts replacements or new processes and publishes the outcome.
//
// Threads: one per process follows its output (the `output` long poll, on a
// connection of its own) and reports its exit; one forwards stdin to rank 0;
// one waits for SIGINT/SIGTERM/SIGHUP. The caller's thread is the controller:
// it takes those reports from one queue and decides (failure_policy.hpp).
// Every wait there has an end: a rank whose daemon stops answering is
// reported lost, so a job never hangs on a dead host; and a follower waiting
// on a daemon the VM declared failed is stopped then (ConnectionStop), so
// the job ends as soon as its outcome is known, not when that wait runs out.
#pragma once

#include "failure_policy.hpp"
#include "ft_options.hpp"
#include "job_recovery.hpp"
#include "spawn_client.hpp"
#include "vm_link.hpp"

#include <harness/common/crypto.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace harness::ftmpirun {

struct RankPlace {
    std::string member_id;
    Endpoint tcp;
};

// What a rank runs (one per MPMD context; a replacement runs its rank's).
struct RankProgram {
    std::vector<std::string> argv;  // program and its arguments
    std::vector<std::string> env;   // K=V (-x)
    std::string cwd;
};

struct JobSpec {
    std::int64_t job_id = 0;
    std::vector<RankProgram> programs;
    std::vector<std::size_t> program_of_rank;        // rank → index into programs
    std::vector<std::vector<std::string>> rank_env;  // rank → K=V of its own (binding, local rank)
    std::vector<RankPlace> ranks;                    // rank → daemon
    std::vector<RankPlace> hosts;                    // the job's daemons, in placement order (replacements go there)
    std::vector<std::string> host_switch;            // the switch of each of hosts ("" when not given)
    std::vector<DaemonAddress> vm;                   // every alive daemon, ftmpirun's own first (events, member list)
    VmKey key;
    bool tag_output = false;
    bool timestamp_output = false;
    std::optional<std::chrono::milliseconds> timeout;
    bool forward_stdin = true;
    FtOptions ft;
    // REBUILD modes: where replacements go (null: the failed rank's daemon
    // while it lives, else the least loaded; README.md "Replacements").
    std::shared_ptr<Recovery> recovery;
    int standbys = 0;  // hot standby processes started with the job (PROMOTE)
};

// Runs the job to its end; returns ftmpirun's exit status (README.md).
int run_job(const JobSpec &spec);

}  // namespace harness::ftmpirun
