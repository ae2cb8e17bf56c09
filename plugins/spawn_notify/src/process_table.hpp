// process_table.hpp — the processes one spawn_notify instance started.
//
// One monitor thread owns an epoll set with, per child, a pidfd (readable
// once the child has exited), its stdout and stderr pipes, and its stdin pipe
// while data waits to be written. So an exit is seen the moment it happens —
// no polling, no sleeping — and only our own pids are ever reaped (hcored's
// reaper waits for the pids it watches, never for -1, so neither takes the
// other's children). Before reaping, the pipes are drained, so every line a
// process wrote before exiting is in its log when its exit is announced.
//
// Callers (the PACKED functions, on daemon threads) block on one condition
// variable for their long polls; every change notifies it. shutdown() ends
// every long poll, kills every child's process group and reaps them.
//
// A process of an MPI job (FTMPI_JOB in its environment, job_cleanup.hpp)
// takes its process group with it when it ends, and the last one of a job
// here removes the job's shared-memory files. Each process's lifecycle socket
// (launch.hpp) is read like its output, so its last word ("initialized",
// "finalized", "aborted") is known when its exit is reported.
#pragma once

#include "launch.hpp"
#include "limits.hpp"
#include "output_log.hpp"

#include <harness/common/result.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace harness::vm::spawn {

// How a process ended, as the contract reports it: exit_code −1 when a
// signal killed it, signal 0 when it exited.
struct ExitReport {
    std::int64_t handle = 0;
    std::int64_t pid = 0;
    std::string tag;
    std::string notify_topic;
    std::int32_t exit_code = 0;
    std::int32_t signal = 0;
    std::string mpi_state;  // the last lifecycle word, empty when none came
};

struct ExitEvent {
    std::int64_t seq = 0;
    std::int64_t handle = 0;
    std::string tag;
    std::int32_t exit_code = 0;
    std::int32_t signal = 0;
};

struct ExitBatch {
    std::int64_t next_event = 0;
    std::vector<ExitEvent> events;
};

struct ProcessStatus {
    std::string state;  // "running", "exited", "signaled"
    std::int32_t exit_code = 0;
    std::int32_t signal = 0;
    std::string mpi_state;  // "", "initialized", "finalized", "aborted"
};

struct OutputReply {
    OutputBatch batch;
    bool finished = false;  // exited, output complete, and all of it returned
};

struct Started {
    std::int64_t handle = 0;
    std::int64_t pid = 0;
};

class ProcessTable {
public:
    using ExitHook = std::function<void(const ExitReport &)>;

    // Throws std::runtime_error when epoll or the monitor thread cannot start.
    // `shm_ledger`: where the rank files of job processes are listed
    // (rank_files_ledger); empty: nowhere.
    ProcessTable(Limits limits, ExitHook on_exit, std::filesystem::path shm_ledger = {});
    ~ProcessTable();
    ProcessTable(const ProcessTable &) = delete;
    ProcessTable &operator=(const ProcessTable &) = delete;

    Result<Started> spawn(const SpawnRequest &request, const std::vector<std::string> &extra_env);
    Result<void> signal(std::int64_t handle, int sig, bool whole_group);
    Result<ProcessStatus> status(std::int64_t handle) const;
    ExitBatch wait(std::int64_t after_event, std::chrono::milliseconds wait);
    Result<OutputReply> output(std::int64_t handle, std::int64_t after_line, std::chrono::milliseconds wait);
    // Queues data for the child's stdin (waiting up to `wait` for room);
    // returns how many bytes were taken. close: end stdin after the data.
    Result<std::int64_t> write_stdin(std::int64_t handle, std::span<const std::uint8_t> data, bool close,
                                     std::chrono::milliseconds wait);

    // Kills every child's process group (SIGKILL), reaps each, reports each
    // exit through the hook, and stops the monitor. Idempotent.
    void shutdown();
    std::size_t running() const;

private:
    struct Process;
    using Lock = std::unique_lock<std::mutex>;
    using Clock = std::chrono::steady_clock;

    void monitor_loop();
    int next_timeout_ms(const Lock &) const;
    void dispatch(const Lock &, std::uint64_t key, std::uint32_t events);
    void read_stream(const Lock &, Process &p, int stream, bool until_empty);
    void read_lifecycle(const Lock &, Process &p);
    void close_lifecycle(Process &p);
    void end_job_process(const Lock &, Process &p);
    void flush_stdin(const Lock &, Process &p);
    void close_stdin(const Lock &, Process &p);
    void reap(const Lock &, Process &p, bool block);
    void record_exit(const Lock &, Process &p, int wait_status, bool reaped);
    void maybe_finish(const Lock &, Process &p);
    void expire_drains(const Lock &);
    std::shared_ptr<Process> find(std::int64_t handle) const;
    void unwatch(int fd);
    void wake_monitor();

    Limits limits_;
    ExitHook on_exit_;
    int epoll_fd_ = -1;
    int wake_fd_ = -1;  // eventfd: new work or shutdown

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::map<std::int64_t, std::shared_ptr<Process>> processes_;
    // Per MPI job: the /dev/shm names of its ranks started here, removed
    // when the job's last process here ends (end_job_process).
    std::map<std::string, std::vector<std::string>> job_files_;
    std::filesystem::path shm_ledger_;
    std::deque<std::int64_t> finished_order_;  // for forgetting the oldest
    std::deque<ExitEvent> exits_;
    std::int64_t next_handle_ = 1;
    std::int64_t next_exit_seq_ = 1;
    std::size_t running_ = 0;  // spawned (or being spawned) and not reaped
    bool stopping_ = false;
    bool shut_down_ = false;
    std::thread monitor_;
};

}  // namespace harness::vm::spawn
