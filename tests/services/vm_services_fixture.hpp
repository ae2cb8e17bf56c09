// vm_services_fixture.hpp — a VM of real hcored daemons running vm/drd,
// vm/naming and vm/events, for the services' integration tests and
// benchmarks, plus typed calls of the contract's functions through Hlib.
//
// Each daemon gets its own root (kept across restarts, so a test can stop or
// kill -9 every daemon and start them again on the same roots and ports)
// with the built vm/* plugins copied into <root>/lib/vm.
#pragma once

#include "daemon_fixture.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/pack.hpp>
#include <harness/hlib/hlib.hpp>

#include <memory>
#include <string>
#include <vector>

namespace harness::services_test {

using namespace std::chrono_literals;
using test::Daemon;

struct Event {
    std::int64_t seq = 0;
    Bytes payload;
    bool operator==(const Event &) const = default;
};

class ServiceVm {
public:
    // Starts n daemons: the first alone, the others joining it; waits until
    // every daemon lists n alive members.
    explicit ServiceVm(std::size_t n, std::chrono::milliseconds heartbeat = 50ms,
                       std::chrono::milliseconds heartbeat_timeout = 600ms);
    ~ServiceVm();

    std::size_t size() const { return daemons_.size(); }
    Daemon &operator[](std::size_t i) { return *daemons_.at(i); }
    bool alive(std::size_t i) const { return daemons_.at(i) != nullptr; }
    // Index of the daemon with this member id, or size() if none.
    std::size_t index_of(const std::string &member_id) const;

    void kill_hard(std::size_t i);
    // Starts one more daemon, joining the first; returns its index.
    std::size_t add_daemon();
    // Stops (SIGTERM) every daemon still running, then starts all of them
    // again on the same roots and ports: the first alone, the others joining.
    void restart_all();

    const std::filesystem::path &key_file() const { return key_file_; }

    // Waits until every running daemon's vm/drd reports n voters and a
    // leader: before that, killing the one voter of a young VM stalls the
    // DRD (no majority left), which is not what failover tests are about.
    bool wait_for_drd_voters(std::size_t n, std::chrono::milliseconds timeout);

private:
    void start(std::size_t i, const std::string &join);
    std::vector<std::string> args(const std::string &join) const;

    std::unique_ptr<test::TempDir> dir_;
    std::filesystem::path key_file_;
    std::vector<std::filesystem::path> roots_;
    std::vector<std::uint16_t> ports_;
    std::vector<std::unique_ptr<Daemon>> daemons_;
    std::chrono::milliseconds heartbeat_, heartbeat_timeout_;
};

// A connection to one daemon and the contract's calls on it.
class ServiceClient {
public:
    ServiceClient(const Daemon &d, const std::filesystem::path &key_file);

    Result<std::int64_t> publish(const std::string &topic, std::span<const std::uint8_t> payload,
                                 std::chrono::milliseconds timeout = 15s);
    Result<std::vector<Event>> fetch(const std::string &topic, std::int64_t after_seq, std::int64_t wait_ms,
                                     std::int64_t max = 1000);
    Result<std::string> events_where(std::chrono::milliseconds timeout = 15s);
    Result<std::int64_t> allocate(const std::string &space, std::int64_t count,
                                  std::chrono::milliseconds timeout = 15s);
    Result<std::string> naming_where(std::chrono::milliseconds timeout = 15s);
    // vm/drd status: the leader's id (empty: none) and the number of voters.
    Result<std::pair<std::string, std::int64_t>> drd_status(std::chrono::milliseconds timeout = 5s);

    // Any function with any (possibly malformed) argument buffer.
    Result<Bytes> call(const char *component, const char *function, const Packer &args,
                       std::chrono::milliseconds timeout);

private:
    Endpoint where_;
    VmKey key_;
    std::unique_ptr<hlib::Daemon> daemon_;
};

}  // namespace harness::services_test
