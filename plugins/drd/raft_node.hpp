// raft_node.hpp — ReplicatedLog on c-raft 0.15 with its libuv backend.
//
// One thread runs a libuv loop that owns the raft instance; every raft call
// happens on it (c-raft is not thread-safe). Callers on other threads post a
// task (a queue plus uv_async_send) and wait on a condition with their
// deadline. Pitfalls handled here (README.md, "Engine"): entries padded to 8 bytes
// (command.hpp), buffers from raft_malloc, asynchronous snapshots (the store
// is serialized on a libuv worker thread), tuned timeouts, and bootstrap only
// of the node that forms a VM's cluster (others start empty and are added by
// the leader); a deferred node waits, listening, until told which it is. Raft traffic goes through auth_transport.hpp.
#pragma once

#include "replicated_log.hpp"
#include "store.hpp"

#include <harness/common/crypto.hpp>

#include <filesystem>
#include <functional>
#include <memory>

namespace harness::drd {

struct RaftNodeOptions {
    std::filesystem::path dir;       // c-raft's log and snapshots (must exist)
    std::uint64_t id = 0;            // this server's raft id (> 0, stable per root)
    std::string host = "127.0.0.1";  // listen host (the daemon's)
    std::uint16_t port = 0;          // 0: pick a free port
    bool bootstrap = false;          // first node of the VM: a one-voter cluster
    // Open the log and listen, but start raft only when begin() says how
    // (the service decides whether to bootstrap after it has asked its peers).
    bool deferred = false;
    VmKey key;
    std::function<void(int level, const std::string &message)> log;
    unsigned election_timeout_ms = 300;
    unsigned heartbeat_timeout_ms = 30;
    unsigned snapshot_threshold = 1024;  // entries between snapshots
    unsigned snapshot_trailing = 512;    // entries kept after a snapshot
    Store *store = nullptr;
    std::function<void(std::int64_t index)> on_applied;  // loop thread, after each applied command
};

class RaftNode final : public ReplicatedLog {
public:
    static Result<std::unique_ptr<RaftNode>> start(RaftNodeOptions options);
    ~RaftNode() override;  // stops the loop: pending calls fail, the thread is joined

    // Starts a deferred node: bootstrap a one-voter cluster, or start empty
    // and wait to be added by a leader. Until then the node is in no
    // configuration, knows no leader and accepts no raft connection.
    Result<void> begin(bool bootstrap, Deadline deadline);
    bool started() const;

    Result<ApplyOutcome> submit(const Command &command, Deadline deadline) override;
    Result<void> barrier(Deadline deadline) override;
    Result<void> add(std::uint64_t id, const std::string &address, Deadline deadline) override;
    Result<void> assign(std::uint64_t id, Role role, Deadline deadline) override;
    Result<void> remove(std::uint64_t id, Deadline deadline) override;
    Result<ClusterView> view(Deadline deadline) override;
    const std::string &address() const override;
    std::uint64_t id() const override;

    struct Impl;

private:
    explicit RaftNode(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace harness::drd
