// register_workload.hpp — the DRD register workload: clients on every daemon
// doing put / linearizable get / cas on a few keys at once, while the
// driver kills the DRD leader's daemon (kill -9, then restarts it) and cuts
// hosts off (on network namespaces). Every operation is recorded with its
// invocation and completion time and its result; one that failed or timed
// out is recorded as indeterminate. The history goes to the checker.
#pragma once

#include "chaos_vm.hpp"
#include "history.hpp"

#include <chrono>
#include <random>

namespace harness::chaos {

struct RegisterOptions {
    int ops = 10000;  // operations to record (indeterminate ones included)
    int clients_per_daemon = 2;
    int keys = 5;
    std::chrono::milliseconds op_timeout{5000};
    bool faults = true;  // leader kills and partitions while the clients run
};

struct RegisterRun {
    History history;
    int leader_kills = 0;
    int partitions = 0;
    double seconds = 0;
    std::string faults;  // what the driver did, in order
};

// Runs on the main thread (daemons are restarted from it); the clients are
// threads of their own. The VM is healthy again when it returns.
RegisterRun run_register_workload(ChaosVm &vm, const RegisterOptions &options, std::mt19937_64 &rng);

}  // namespace harness::chaos
