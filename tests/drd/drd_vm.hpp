// drd_vm.hpp — a VM of real hcored daemons running only vm/drd, for the DRD's
// integration tests and benchmark.
//
// Daemons share one key; the first starts alone (and bootstraps the raft
// cluster), the others join it. Failure detection uses 100 ms heartbeats and
// the default 1.5 s timeout: fast enough for kill -9 tests, and not fooled by
// a loaded CI machine (500 ms was, with builds running beside the tests).
// Every wait polls with a deadline.
#pragma once

#include "daemon_fixture.hpp"
#include "drd_client.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace harness::drd::test {

using harness::test::Daemon;

class DrdVm {
public:
    // env: extra "NAME=value" for every daemon (e.g. DRD tuning variables).
    explicit DrdVm(std::vector<std::string> env = {});
    // Starts a daemon (joining the first live one, unless it is the first);
    // root: reuse a stopped daemon's root (a restart). Returns its index.
    std::size_t start_daemon(const std::filesystem::path &root = {});
    Daemon &daemon(std::size_t i) { return *daemons_.at(i); }
    std::size_t size() const { return daemons_.size(); }
    DrdClient client(std::size_t i) const;
    const VmKey &key() const { return key_; }
    const std::filesystem::path &key_file() const { return key_file_; }

    // True when every running daemon reports the same leader, `voters`
    // voters and `standbys` standbys.
    bool formed(std::size_t voters, std::size_t standbys);
    bool wait_formed(std::size_t voters, std::size_t standbys, std::chrono::milliseconds timeout);
    // Index of the daemon that leads, as the running daemon `ask` reports it.
    std::optional<std::size_t> leader(std::size_t ask);
    // kill -9.
    void kill(std::size_t i) { daemons_.at(i)->kill_hard(); }
    // Moves a killed daemon's root out of its Daemon (so it survives) for a restart.
    std::filesystem::path keep_root(std::size_t i);

private:
    std::unique_ptr<harness::test::TempDir> dir_;
    std::filesystem::path key_file_;
    VmKey key_;
    std::vector<std::unique_ptr<Daemon>> daemons_;
    std::vector<std::unique_ptr<harness::test::TempDir>> roots_;
    std::vector<std::string> env_;
};

// Arguments every test daemon gets.
std::vector<std::string> drd_daemon_args();

}  // namespace harness::drd::test
