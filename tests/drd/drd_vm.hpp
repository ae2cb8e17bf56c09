// drd_vm.hpp — a VM of real hcored daemons running only vm/drd, for the DRD's
// integration tests and benchmark.
//
// Daemons share one key; the first starts alone (and bootstraps the raft
// cluster), the others join it. With Preload::none the daemons start without
// vm/drd and a test loads it later (load_drd), as a client would on demand. Failure detection uses 100 ms heartbeats and
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
    // Whether the daemons load vm/drd at start (--services vm/drd) or not.
    enum class Preload { drd, none };
    // env: extra "NAME=value" for every daemon (e.g. DRD tuning variables).
    explicit DrdVm(std::vector<std::string> env = {}, Preload preload = Preload::drd);
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
    // Loads vm/drd into daemon i, as `hconsole load` or a client would.
    Result<std::string> load_drd(std::size_t i);
    // True once every running daemon lists `n` alive members.
    bool wait_members(std::size_t n, std::chrono::milliseconds timeout);
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
    Preload preload_ = Preload::drd;
};

// Arguments every test daemon gets (preloading vm/drd unless told not to).
std::vector<std::string> drd_daemon_args(DrdVm::Preload preload = DrdVm::Preload::drd);

}  // namespace harness::drd::test
