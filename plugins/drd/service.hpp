// service.hpp — the vm/drd service: one per daemon, behind the plugin's C functions.
//
// Owns the SQLite store, the raft node and two helpers:
//   * a membership thread. First it forms the cluster: a server with no raft
//     state asks the other daemons' DRDs and bootstraps only when none runs
//     raft or proposes to (formation.cpp). Then, on the leader, it follows
//     the VM's members: adds joining daemons (voters up to 3, or 5 with ≥5
//     members, the rest standbys), promotes a standby when a voter's daemon
//     is declared failed and removes the failed one (membership.cpp);
//   * a leader client that forwards what only the leader can do (replicated
//     writes, linearizable reads) to the leader's daemon over Hlib
//     (leader_client.cpp).
// The raft id → member id map is itself replicated, as records under
// "vm/drd/servers/<raft id>" (value: str member_id, str daemon address).
#pragma once

#include "raft_node.hpp"
#include "store.hpp"

#include <harness/common/plugin.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace harness::hlib {
class Daemon;
}

namespace harness::drd {

inline constexpr const char *kServersPrefix = "vm/drd/servers/";

struct MemberEntry {
    std::string id;
    std::string address;  // daemon host:port
    bool alive = true;
    bool is_self = false;
};

// Where this server stands in forming the cluster, as raft_info reports it
// to the other daemons (formation.cpp).
enum class Formation {
    forming,    // no raft state; raft not started; looking at the others
    candidate,  // forming and proposing to bootstrap the VM's cluster
    started,    // raft runs: resumed its log, bootstrapped, or waits to be added
};
const char *formation_name(Formation f);

// Where a server's record says it runs.
struct ServerRecord {
    std::uint64_t raft_id = 0;
    std::string member_id;
    std::string daemon_address;
};

class Service {
public:
    static Result<std::unique_ptr<Service>> create(const harness_host_api *host);
    ~Service();

    // The plugin functions (PACKED): args in, reply appended to out.
    Result<void> put(Unpacker &args, Packer &out);
    Result<void> cas(Unpacker &args, Packer &out);
    Result<void> get(Unpacker &args, Packer &out);
    Result<void> del(Unpacker &args, Packer &out);
    Result<void> scan(Unpacker &args, Packer &out);
    Result<void> watch(Unpacker &args, Packer &out);
    Result<void> status(Unpacker &args, Packer &out);
    Result<void> raft_info(Unpacker &args, Packer &out);
    Result<void> forward(Unpacker &args, Packer &out);

    void log(int level, const std::string &message) const;

private:
    Service() = default;

    // Replicated operations: run on the leader, forwarded when not leader.
    Result<ApplyOutcome> replicate(const Command &command, Deadline deadline);
    Result<std::optional<Record>> linearizable_get(const std::string &key, Deadline deadline);
    Result<std::vector<Record>> linearizable_scan(const std::string &prefix, Deadline deadline);
    // Sends op to the leader's daemon; BUSY when no leader is known.
    Result<Bytes> call_leader(const std::string &op, std::span<const std::uint8_t> args, Deadline deadline);
    Result<Bytes> call_member(const std::string &daemon_address, const std::string &function,
                              std::span<const std::uint8_t> args, Deadline deadline);

    // Who asks for a write: the caller's (client, request) when it passed
    // one (it retries with the same), else this service's own, fresh per
    // call (its internal retries reuse it).
    Result<void> read_requester(Unpacker &args, const std::string &function, Command &command);

    std::vector<MemberEntry> members() const;
    std::map<std::uint64_t, ServerRecord> server_records() const;

    // membership.cpp
    void reconcile_loop();
    bool reconcile_once();  // true when it changed something
    // formation.cpp: one round of forming the cluster; true once raft runs.
    bool form_once();

    const harness_host_api *host_ = nullptr;
    VmKey key_;
    std::string member_id_;
    std::unique_ptr<Store> store_;
    std::unique_ptr<RaftNode> node_;
    std::atomic<Formation> formation_{Formation::forming};
    // This daemon answers calls of its vm/drd (it is in the daemon's plugin
    // registry): only then do the others see this server's candidacy.
    bool callable_ = false;

    std::mutex local_mutex_;  // local_records read-modify-write (cas)

    // Fault injection for the exactly-once test: the leader dies (SIGKILL)
    // after applying a forwarded write of this key for the first time,
    // before it answers (HARNESS_DRD_DIE_AFTER_APPLYING; empty: never).
    std::string die_after_applying_;

    // This service's client id for the writes it asks for itself.
    std::string client_;
    std::atomic<std::int64_t> next_request_{1};

    // Watches wait for applied entries.
    std::mutex applied_mutex_;
    std::condition_variable applied_cv_;
    std::int64_t applied_index_ = 0;

    // Reconciler.
    std::mutex reconcile_mutex_;
    std::condition_variable reconcile_cv_;
    bool members_changed_ = true;
    std::atomic<bool> stopping_{false};
    std::thread reconciler_;

    // Idle connections to other daemons, by address (Hlib connections serve
    // one thread at a time).
    std::mutex pool_mutex_;
    std::map<std::string, std::vector<std::unique_ptr<hlib::Daemon>>> pool_;
};

}  // namespace harness::drd
