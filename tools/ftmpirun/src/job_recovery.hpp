// job_recovery.hpp — where a failed rank's replacement goes, by the job's
// recovery policy (docs/policies.md): detectors pick a protocol, the
// protocol acts through this class (harness::policy::Launcher), and a
// migration on a host grid asks the placement plugin, which may move
// surviving ranks too (a slide).
//
// A fault is decided when ftmpirun sees it (the process's end, or its
// daemon declared failed or seen to stop answering), before the survivors
// agree on the failed set: the ranks a slide moves are fenced as the
// survivors learn of the lost rank (job_respawn.cpp), so their recovery
// round takes them with it and restarts them all at their new hosts in one
// round. The plan for each rank waits for the survivors' respawn request,
// which carries it out (job_respawn.cpp).
//
// Pure (no VM, no threads): the job's state comes in as JobFacts.
#pragma once

#include "grid_layout.hpp"

#include <harness/policy/chain.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace harness::ftmpirun {

struct HostFacts {
    std::string member_id;
    bool alive = true;
    int processes = 0;  // the job's live processes on it
    std::string switch_name;
};

// What the job looks like when a fault is decided.
struct JobFacts {
    std::vector<HostFacts> hosts;    // the job's hosts
    std::vector<int> rank_host;      // job host of each rank's latest process
    std::vector<int> standby_host;   // job host of each standby; -1: gone or promoted
    std::vector<int> planned_hosts;  // job hosts a plan not carried out yet starts a rank on
};

// What happens to one rank at its next respawn request.
struct RankPlan {
    enum class Kind { start_on, promote, leave_out };
    Kind kind = Kind::start_on;
    int host = -1;     // start_on: job host; promote: the standby's host
    int standby = -1;  // promote
    std::string why;   // leave_out: the reason, said to the survivors
    int order = 0;     // a slide's pipeline position: its ranks start in this order
    // leave_out: the policy chose it (IGNORE's leave_out action), not a
    // fallback after every action was refused: the gap is the user's wish
    // and is never refilled (docs/policies.md "A left-out rank is a gap").
    bool chosen = false;
};

class Recovery final : public policy::Launcher {
public:
    // placement may be null (no grid); grid then too.
    Recovery(std::unique_ptr<policy::Policy> policy, std::optional<GridLayout> grid,
             std::unique_ptr<policy::Placement> placement);

    struct Outcome {
        std::map<int, RankPlan> plans;   // the failed rank's, and each moved rank's
        std::vector<int> moved;          // surviving ranks a slide moves: fence them
        std::vector<std::string> notes;  // for ftmpirun's log
    };
    // The latest process of `rank` (incarnation) on job host `host` failed;
    // host_failed: its daemon was declared failed.
    Outcome on_fault(int rank, int incarnation, int host, bool host_failed, const JobFacts &facts);
    // A job host the VM declared failed. When it holds no rank (a spare, a
    // host a slide vacated, a standby's) the placement learns it is gone,
    // so no later slide counts on it; a host with a rank is the placement's
    // business through that rank's fault.
    std::vector<std::string> on_host_lost(int host, const JobFacts &facts);

    const policy::Policy &policy() const { return *policy_; }

private:
    std::string start_on(int rank, int host) override;
    std::string migrate(int rank, bool avoid_switch) override;
    std::string promote(int rank) override;
    void leave_out(int rank, const std::string &reason) override;

    std::string slide(int rank, int host, const std::string &avoid_switch);
    std::string host_name(int host) const;

    std::unique_ptr<policy::Policy> policy_;
    std::optional<GridLayout> grid_;
    std::unique_ptr<policy::Placement> placement_;
    std::map<int, int> faults_on_host_;  // job host → faults of the job's processes there
    std::set<int> lost_to_placement_;    // grid hosts the placement was told are lost
    std::set<int> standbys_taken_;
    int next_order_ = 0;
    // During on_fault.
    const JobFacts *facts_ = nullptr;
    Outcome *out_ = nullptr;
    int fault_host_ = -1;
};

}  // namespace harness::ftmpirun
