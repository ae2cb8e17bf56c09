// replicated_log.hpp — what the DRD needs from a consensus engine.
//
// Our own small interface, so that c-raft (raft_node.hpp) can be replaced
// without touching the service: submit a command and learn its outcome once
// committed and applied; a barrier for linearizable reads; membership
// changes; a view of the cluster. Every call takes a deadline and returns
// (never blocks past it); calls that need the leader fail with
// HARNESS_ERR_BUSY on a follower so the caller can forward and retry.
#pragma once

#include "command.hpp"

#include <harness/common/result.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace harness::drd {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

enum class Role { standby = 0, voter = 1, spare = 2 };  // c-raft's RAFT_STANDBY/VOTER/SPARE

struct ServerInfo {
    std::uint64_t id = 0;
    std::string address;
    Role role = Role::spare;
};

struct ClusterView {
    std::uint64_t self_id = 0;
    std::uint64_t leader_id = 0;  // 0: none known
    std::string leader_address;
    bool is_leader = false;
    std::vector<ServerInfo> servers;
    std::int64_t commit_index = 0;
    std::int64_t last_applied = 0;
};

// The error a follower gives for leader-only calls.
inline constexpr const char *kNotLeader = "not the drd leader";
inline bool is_not_leader(const Error &e) {
    return e.status == HARNESS_ERR_BUSY && e.message == kNotLeader;
}

class ReplicatedLog {
public:
    virtual ~ReplicatedLog() = default;
    // Leader only: append, commit on a majority of voters, apply, report.
    virtual Result<ApplyOutcome> submit(const Command &command, Deadline deadline) = 0;
    // Leader only: returns once everything committed before the call is
    // applied here, and this node was still leader (a read after it is
    // linearizable).
    virtual Result<void> barrier(Deadline deadline) = 0;
    // Leader only, one change at a time.
    virtual Result<void> add(std::uint64_t id, const std::string &address, Deadline deadline) = 0;
    virtual Result<void> assign(std::uint64_t id, Role role, Deadline deadline) = 0;
    virtual Result<void> remove(std::uint64_t id, Deadline deadline) = 0;
    virtual Result<ClusterView> view(Deadline deadline) = 0;
    virtual const std::string &address() const = 0;
    virtual std::uint64_t id() const = 0;
};

}  // namespace harness::drd
