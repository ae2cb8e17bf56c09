// host_vm.hpp — the VM the multi-host tests start on a Network: one daemon
// per namespace "host", every VM service, fast heartbeats (failure noticed in
// under a second), all joined to host 0's. The tests reach each daemon over
// its Unix socket (a file, reachable from any namespace).
#pragma once

#include "netns.hpp"

#include "it_support.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace harness::netns {

using Daemons = std::vector<std::unique_ptr<it::Daemon>>;

// A client of d; throws when d does not answer.
hlib::Daemon client_of(const it::Daemon &d);

// Member id → alive, as d sees the VM (empty when d does not answer).
std::map<std::string, bool> states_seen_by(const it::Daemon &d);

// True when `who` sees exactly the daemons of d, all alive.
bool sees_all_alive(const it::Daemon &who, const Daemons &d);

// The DRD's voter count as d sees it; 0 without a leader or an answer.
std::int64_t drd_voters(const it::Daemon &d);

// The options of host i's daemon in the VM `vm` (key file `key`, port 7001,
// every VM service, fast heartbeats; hosts after the first join host 0's).
test::DaemonOptions host_options(const Network &net, int i, const std::string &vm, const std::filesystem::path &key);

// Starts the VM `vm` with key file `key` on every host of net (port 7001),
// and returns once each daemon sees all alive and the DRD has all the voters
// it will have (a voter on each of up to 3 hosts, 5 from 5 hosts on), so
// that the hosts left after one cut are a majority.
Daemons start_vm(const Network &net, const std::string &vm, const std::filesystem::path &key);

// main() of a multi-host test: without root and `ip netns` it says SKIPPED
// and returns 77 (CTest's skip code for these tests), else runs doctest.
int run_tests(int argc, char **argv);

}  // namespace harness::netns
