// chaos_vm.hpp — the VM the chaos soak runs on: N hcored daemons with every
// VM service, each in a network namespace of its own (tests/netns) when this
// process may create them, else all on loopback (no link cuts then).
//
// Each daemon keeps its root for the whole run, so a daemon killed with
// kill -9 comes back with its member id and DRD state, as a rebooted host
// would. Daemons are started from the thread that constructs the VM and must
// be restarted from it too (they die with the thread that started them).
#pragma once

#include "host_vm.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace harness::chaos {

class ChaosVm {
public:
    // Starts the daemons under work/ and waits until the VM is healthy; throws
    // when it does not become so.
    ChaosVm(int daemons, bool use_netns, const std::filesystem::path &work);
    ~ChaosVm();
    ChaosVm(const ChaosVm &) = delete;
    ChaosVm &operator=(const ChaosVm &) = delete;

    bool on_netns() const { return net_ != nullptr; }
    int size() const { return static_cast<int>(daemons_.size()); }
    it::Daemon &daemon(int i) { return *daemons_.at(static_cast<std::size_t>(i)); }
    // "host:port" of daemon i, as ftmpirun's --hcore and --host take it.
    std::string address(int i) const;
    // The command prefix that runs a program on daemon i's host ({} on loopback).
    std::vector<std::string> on_host(int i) const;
    const std::filesystem::path &key() const { return key_; }
    // The Unix socket of daemon i (a file: reachable from every namespace).
    std::filesystem::path socket(int i) const { return sockets_.at(static_cast<std::size_t>(i)); }

    void kill(int i);  // kill -9, on purpose
    void cut(int i);   // daemon i's host loses its link (netns only)
    void heal(int i);
    bool down(int i) const { return killed_.at(static_cast<std::size_t>(i)); }
    bool is_cut(int i) const { return cut_.at(static_cast<std::size_t>(i)); }

    // Daemons that exited although nobody killed them on purpose.
    std::vector<int> unexpected_exits();
    // Restarts killed daemons, heals cut links, then waits until every daemon
    // sees all alive and the DRD has a voter on each. False (and *why) at
    // the deadline.
    bool restore(std::chrono::milliseconds timeout, std::string *why);
    // The index of the DRD leader's daemon, as the first answering daemon says.
    std::optional<int> drd_leader();

private:
    void start(int i);
    bool healthy(std::string *why);

    std::unique_ptr<netns::Network> net_;
    std::filesystem::path key_;
    std::vector<std::uint16_t> ports_;
    std::vector<std::filesystem::path> roots_;
    std::vector<std::filesystem::path> sockets_;
    netns::Daemons daemons_;
    std::vector<bool> killed_, cut_;
};

}  // namespace harness::chaos
