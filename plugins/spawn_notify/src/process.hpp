// process.hpp — one child as the process table keeps it (process_table.cpp
// and process_lifecycle.cpp share it; nothing else sees it).
#pragma once

#include "process_table.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>

namespace harness::vm::spawn {

struct ProcessTable::Process {
    Process(std::size_t max_bytes, std::size_t max_line) : log(max_bytes, max_line) {}
    std::int64_t handle = 0;
    pid_t pid = -1;
    std::string tag;
    std::string notify_topic;
    std::string job;  // FTMPI_JOB of its request; empty: not part of an MPI job
    int pidfd = -1;
    int lifecycle_fd = -1;
    std::string lifecycle_partial;  // an unfinished line of the lifecycle socket
    std::string mpi_state;          // its last whole lifecycle word
    int stdin_fd = -1;
    int out_fd[2] = {-1, -1};  // stdout, stderr
    bool exited = false;
    bool finished = false;  // exited and both pipes closed
    std::int32_t exit_code = 0;
    std::int32_t signal = 0;
    OutputLog log;
    std::string stdin_pending;
    bool stdin_close_requested = false;
    bool stdin_watched = false;
    std::optional<std::chrono::steady_clock::time_point> drain_deadline;
};

}  // namespace harness::vm::spawn
