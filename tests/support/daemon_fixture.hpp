// daemon_fixture.hpp — start real hcored daemons from tests.
//
// A Daemon is one hcored child process on loopback, in a fresh root directory
// under /tmp (unless the test gives one). start() returns once the daemon has
// printed its ready line ("hcored ready vm=… id=… tcp=… udp=… unix=…") and
// throws std::runtime_error with the tail of its stderr if it exits or stays
// silent past the deadline, so a test never hangs on a daemon that did not come
// up. Destruction sends SIGTERM and waits (SIGKILL after a deadline); kill_hard()
// is the kill -9 of failure tests.
//
//   auto key = harness::test::write_vm_key(keys.path / "vm.key");
//   auto a = harness::test::Daemon::start({.vm = "t", .key_file = key});
//   auto b = harness::test::Daemon::start({.vm = "t", .key_file = key,
//                                          .extra_args = {"--join", a->tcp().to_string()}});
//   CHECK(harness::test::wait_until([&] { return members_of(*a) == 2; }, 5s));
//
// The daemon's stderr goes to <root>/hcored.stderr (stderr_tail() for failure
// messages) and its stdout lines are kept (stdout_lines()). Set
// HARNESS_TEST_KEEP=1 to keep temporary roots for inspection.
//
// Start daemons from a thread that outlives them (normally the test's main
// thread): each gets SIGKILL when the thread that started it exits
// (PR_SET_PDEATHSIG), so a crashed test run leaves no daemons behind.
#pragma once

#include <harness/common/endpoint.hpp>

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace harness::test {

using namespace std::chrono_literals;

// A fresh directory under /tmp (mkdtemp), removed with its contents on
// destruction unless HARNESS_TEST_KEEP is set.
class TempDir {
public:
    explicit TempDir(const std::string &prefix = "harness-test");
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::filesystem::path &path() const { return path_; }

private:
    std::filesystem::path path_;
};

// A loopback port free for both TCP and UDP right now (bound to port 0, then
// closed). Another process may still take it before the daemon binds it;
// Daemon::start retries with a new port when that happens.
std::uint16_t free_port(const std::string &host = "127.0.0.1");

// Writes a new random VM key (32 bytes as hex, mode 0600) to file, replacing
// any old one, for daemons that must share a VM. Returns file.
std::filesystem::path write_vm_key(const std::filesystem::path &file);

// Copies the built example plugins (<build>/plugins-root/lib, i.e. lib/examples/…)
// into root/lib/, overwriting older copies.
void install_example_plugins(const std::filesystem::path &root);
// The built plugins directory itself (…/plugins-root/lib).
std::filesystem::path built_plugins_dir();
// The hcored binary the tests were built with; empty when hcored was not built.
std::filesystem::path hcored_path();

// Polls predicate every 10 ms until it returns true (→ true) or timeout passes
// (→ false). The predicate runs at least once.
bool wait_until(const std::function<bool()> &predicate, std::chrono::milliseconds timeout);

// hcored's default --services list: every VM service, in load order.
inline const std::string kAllServices = "vm/drd,vm/naming,vm/events,vm/spawn_notify";

struct DaemonOptions {
    std::filesystem::path root;  // empty: a fresh temp dir owned by the Daemon
    std::string vm = "test";
    std::filesystem::path key_file;  // empty: hcored creates <root>/vm.key
    std::string host = "127.0.0.1";
    std::optional<std::uint16_t> port;    // empty: free_port(); 0: the daemon picks
    std::vector<std::string> extra_args;  // e.g. {"--join", "127.0.0.1:7001"}
    std::vector<std::string> env;         // "NAME=value", added to the test's environment
    bool install_examples = true;         // install_example_plugins(root) before starting
    std::chrono::milliseconds ready_timeout{10000};
    std::chrono::milliseconds stop_timeout{5000};
    std::filesystem::path binary;  // empty: hcored_path()
    std::string netns;             // run as `ip netns exec NETNS hcored …` (give a port)
    // --services: none unless a test asks, so daemon tests stay fast and do
    // not start consensus; kAllServices for every VM service. (A --services
    // in extra_args wins: the last one counts.)
    std::string services;
};

// Fields of the ready line.
struct ReadyInfo {
    std::string line;
    std::string vm;
    std::string id;
    Endpoint tcp;
    Endpoint udp;
    std::filesystem::path unix_socket;
};

// Parses "hcored ready vm=… id=… tcp=H:P udp=H:P unix=PATH"; nullopt if malformed.
std::optional<ReadyInfo> parse_ready_line(const std::string &line);

class Daemon {
public:
    // Starts hcored and waits for its ready line. Throws std::runtime_error
    // (with the command line and stderr tail) if it does not become ready.
    static std::unique_ptr<Daemon> start(DaemonOptions options = {});
    ~Daemon();  // stop()
    Daemon(const Daemon &) = delete;
    Daemon &operator=(const Daemon &) = delete;

    const ReadyInfo &ready() const { return ready_; }
    const std::string &id() const { return ready_.id; }
    const std::string &vm() const { return ready_.vm; }
    const Endpoint &tcp() const { return ready_.tcp; }
    const Endpoint &udp() const { return ready_.udp; }
    const std::filesystem::path &unix_socket() const { return ready_.unix_socket; }
    const std::filesystem::path &root() const { return root_; }
    // The key file the daemon uses (given, or <root>/vm.key).
    const std::filesystem::path &key_file() const { return key_file_; }
    pid_t pid() const { return pid_; }
    const std::vector<std::string> &command() const { return argv_; }

    // True while the process has not exited (reaps it if it has).
    bool running();
    // SIGTERM, wait up to stop_timeout, then SIGKILL. Returns the wait status
    // (as from waitpid), or the earlier one if it had already exited.
    int stop();
    // SIGKILL now and reap: the daemon gets no chance to clean up.
    void kill_hard();
    // Sends a signal (e.g. SIGSTOP to freeze it and miss heartbeats).
    void signal(int sig);
    // The wait status once exited.
    std::optional<int> exit_status() const { return status_; }

    std::filesystem::path stderr_file() const { return root_ / "hcored.stderr"; }
    std::string stderr_text() const;
    std::string stderr_tail(std::size_t max_bytes = 4000) const;
    std::vector<std::string> stdout_lines() const;
    // Waits until a stdout line contains text.
    bool wait_for_stdout(const std::string &text, std::chrono::milliseconds timeout);

private:
    Daemon() = default;
    void launch(const DaemonOptions &options, std::uint16_t port);
    void read_stdout();
    void reap(bool block);
    void stop_reader();

    std::unique_ptr<TempDir> owned_root_;
    std::filesystem::path root_;
    std::filesystem::path key_file_;
    std::vector<std::string> argv_;
    pid_t pid_ = -1;
    std::optional<int> status_;
    ReadyInfo ready_;
    std::chrono::milliseconds stop_timeout_{5000};

    int stdout_fd_ = -1;
    int wake_fd_[2] = {-1, -1};  // tells the reader thread to stop
    std::thread reader_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::string> lines_;
    bool stdout_closed_ = false;
};

}  // namespace harness::test
