// spawn_support.hpp — what the spawn tests share: a daemon that loads only
// vm/spawn_notify, a client to it, and output collection with deadlines.
#pragma once

#include "it_support.hpp"
#include "spawn_client.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace harness::spawn_test {

using namespace std::chrono_literals;
using spawn_client::SpawnClient;
using spawn_client::SpawnSpec;

// A daemon with vm/spawn_notify as its only VM service; env adds
// HARNESS_SPAWN_* limits for the tests that need them.
std::unique_ptr<test::Daemon> start_daemon(std::vector<std::string> env = {});
SpawnClient client_of(const test::Daemon &d);

// Everything a process printed, read until `finished` (REQUIREs it within timeout).
struct Collected {
    std::vector<std::string> out;  // stream 1
    std::vector<std::string> err;  // stream 2
    std::vector<spawn_client::Line> all;
};
Collected collect_output(SpawnClient &c, std::int64_t handle, std::chrono::milliseconds timeout = 20s);

// Polls status until the process is no longer running (long-poll `wait`
// underneath, so no sleeping); returns the final status.
spawn_client::ProcStatus wait_exit(SpawnClient &c, std::int64_t handle, std::chrono::milliseconds timeout = 20s);

// Children of pid that are zombies right now (from /proc).
std::vector<pid_t> zombie_children(pid_t pid);

SpawnSpec shell(const std::string &script, std::string tag = {});

// The command line of ftmpirun running the cominfo job (cominfo_job.c: 4
// ranks, comm mode SHRINK, its go-aheads as files in dir) through the daemon
// at hcore; the cominfo and web view tests watch it lose a rank.
std::vector<std::string> cominfo_job_command(const std::string &ftmpirun, const std::string &job_program,
                                             const Endpoint &hcore, const std::filesystem::path &key_file,
                                             const std::filesystem::path &dir);

}  // namespace harness::spawn_test
