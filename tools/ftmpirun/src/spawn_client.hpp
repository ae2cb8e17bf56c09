// spawn_client.hpp — a typed client of one daemon's vm/spawn_notify.
//
// Packs each request exactly as VM_SERVICES.md's table says and unpacks the
// reply, checking every field, so ftmpirun and the tests speak the contract
// in one place. One SpawnClient owns one authenticated connection and is used
// by one thread at a time (open one per thread for concurrent long polls).
#pragma once

#include <harness/common/crypto.hpp>
#include <harness/common/endpoint.hpp>
#include <harness/common/result.hpp>
#include <harness/hlib/hlib.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace harness::spawn_client {

struct SpawnSpec {
    std::vector<std::string> argv;
    std::vector<std::string> env;  // "K=V"
    std::string cwd;
    std::string tag;
    std::string notify_topic;
};

struct Started {
    std::int64_t handle = 0;
    std::int64_t pid = 0;
};

struct ProcStatus {
    std::string state;  // running, exited, signaled
    std::int32_t exit_code = 0;
    std::int32_t signal = 0;
    // The process's last lifecycle word (its MPI library's "initialized",
    // "finalized" or "aborted"); empty when it wrote none or the daemon is
    // older than the field.
    std::string mpi_state;
};

struct ExitEvent {
    std::int64_t handle = 0;
    std::string tag;
    std::int32_t exit_code = 0;
    std::int32_t signal = 0;
};

struct Exits {
    std::int64_t next_event = 0;
    std::vector<ExitEvent> events;
};

struct Line {
    std::int32_t stream = 1;
    std::string text;
};

struct Output {
    std::int64_t next_line = 0;
    std::vector<Line> lines;
    bool finished = false;
};

// Where a daemon is: its Unix socket (local) or its TCP endpoint.
struct Address {
    std::optional<std::filesystem::path> unix_socket;
    std::optional<Endpoint> tcp;
    std::string describe() const;
};

class SpawnClient {
public:
    static Result<SpawnClient> open(const Address &where, const VmKey &key, std::chrono::milliseconds timeout);

    Result<Started> spawn(const SpawnSpec &spec);
    Result<void> signal(std::int64_t handle, int sig, bool whole_group);
    // timeout: how long the daemon may take to answer.
    Result<ProcStatus> status(std::int64_t handle, std::chrono::milliseconds timeout = std::chrono::seconds(10));
    Result<Exits> wait(std::int64_t after_event, std::chrono::milliseconds wait);
    Result<Output> output(std::int64_t handle, std::int64_t after_line, std::chrono::milliseconds wait);
    Result<std::int64_t> write_stdin(std::int64_t handle, std::span<const std::uint8_t> data, bool close,
                                     std::chrono::milliseconds wait);
    // Any function with hand-packed arguments (tests send malformed ones).
    Result<Bytes> call(const std::string &function, std::span<const std::uint8_t> args,
                       std::chrono::milliseconds timeout);

    const std::string &member_id() { return daemon_.connection().peer_id(); }
    // The connection's socket: another thread may shut it down to end a wait.
    int fd() { return daemon_.connection().fd(); }

private:
    explicit SpawnClient(hlib::Daemon daemon) : daemon_(std::move(daemon)) {}
    hlib::Daemon daemon_;
};

}  // namespace harness::spawn_client
