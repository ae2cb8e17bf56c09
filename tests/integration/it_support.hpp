// it_support.hpp — what the integration tests share on top of daemon_fixture.
//
// A VM of real hcored daemons on loopback sharing one key (start_vm), Hlib
// connections to them, polling with deadlines (never sleep-and-hope), and
// clients that speak the wire protocol by hand over raw POSIX sockets — so a
// test can send exactly the malformed frame or datagram it means to — plus a
// runner for command-line tools with a deadline.
#pragma once

#include "daemon_fixture.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/pack.hpp>
#include <harness/common/protocol.hpp>
#include <harness/common/udp_seal.hpp>
#include <harness/hlib/hlib.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace harness::it {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using test::Daemon;

// Heartbeat settings for tests: failures are detected in well under a second.
inline constexpr std::chrono::milliseconds kHeartbeat{50};
inline constexpr std::chrono::milliseconds kHeartbeatTimeout{400};
std::vector<std::string> fast_heartbeat_args();

inline const ComponentName kMath{"examples", "math"};

// Daemons of one VM: the first started alone, the others with --join to it.
struct Vm {
    std::unique_ptr<test::TempDir> dir;  // holds the key
    std::filesystem::path key_file;
    std::vector<std::unique_ptr<Daemon>> daemons;

    Daemon &operator[](std::size_t i) { return *daemons.at(i); }
    std::size_t size() const { return daemons.size(); }
};

// Starts n daemons (extra_args for each, e.g. fast_heartbeat_args()) and,
// when n > 1, waits until every one sees n alive members. Throws on failure.
Vm start_vm(std::size_t n, const std::vector<std::string> &extra_args = fast_heartbeat_args(),
            std::chrono::milliseconds formation_timeout = 10s);

// Hlib's view of the VM through d: over its Unix socket, or TCP if asked.
hlib::ConnectOptions connect_options(const Daemon &d, bool over_tcp = false);
hlib::VirtualMachine connect(const Daemon &d, bool over_tcp = false);  // throws on failure

// Member id → alive, as d reports it; empty if the request failed.
std::map<std::string, bool> member_states(hlib::VirtualMachine &vm);
// Polls MEMBERS until n members are listed and all are alive.
bool wait_for_alive_members(hlib::VirtualMachine &vm, std::size_t n, std::chrono::milliseconds timeout);

// A frame as read from the wire; message() is a failed reply's text.
struct Frame {
    protocol::Header header;
    Bytes body;
    std::string message() const;
};

Bytes frame_bytes(const protocol::Header &h, std::span<const std::uint8_t> body = {});
protocol::Header request_header(protocol::Type type, std::uint64_t request_id, std::size_t body_len = 0);
Bytes call_body(const ComponentName &c, std::string_view function, harness_mode mode, harness_convention conv,
                std::span<const std::uint8_t> args);

// A stream client speaking the protocol by hand (blocking socket, poll()
// deadlines). Every read has a deadline; nothing here can hang a test.
class RawClient {
public:
    static RawClient tcp(const Endpoint &where);
    static RawClient unix_socket(const std::filesystem::path &path);
    RawClient(RawClient &&other) noexcept;
    RawClient &operator=(RawClient &&) = delete;
    ~RawClient();

    bool send_all(std::span<const std::uint8_t> bytes);
    bool send_frame(const protocol::Header &h, std::span<const std::uint8_t> body = {});
    // One frame, or nullopt on EOF, error or deadline (see last_error()).
    std::optional<Frame> read_frame(std::chrono::milliseconds timeout = 3s, std::uint32_t max_body = 1u << 24);
    // Reads HELLO, answers the challenge with key, expects AUTH_OK.
    bool authenticate(const VmKey &key, std::chrono::milliseconds timeout = 3s);
    // True once the daemon has closed the connection (EOF or reset), false at
    // the deadline. Discards whatever arrives before the close.
    bool wait_closed(std::chrono::milliseconds timeout = 3s);
    void close();
    int fd() const { return fd_; }
    const std::string &last_error() const { return last_error_; }

private:
    explicit RawClient(int fd) : fd_(fd) {}
    bool read_exact(std::uint8_t *p, std::size_t n, Clock::time_point deadline);
    int fd_ = -1;
    std::string last_error_;
};

// A UDP client that seals datagrams itself (or sends them unsealed/broken).
class UdpClient {
public:
    UdpClient(const Endpoint &daemon, const VmKey &key);
    UdpClient(const UdpClient &) = delete;
    UdpClient &operator=(const UdpClient &) = delete;
    ~UdpClient();

    Bytes seal(const protocol::Header &h, std::span<const std::uint8_t> body = {});
    bool send_datagram(std::span<const std::uint8_t> datagram);
    // The next reply datagram, opened and checked; nullopt at the deadline.
    std::optional<Frame> receive(std::chrono::milliseconds timeout = 2s);
    // Sends a sealed PING with request_id and collects every reply until its
    // own arrives; the replies received before it are returned in *earlier.
    bool ping(std::uint64_t request_id, std::vector<Frame> *earlier = nullptr, std::chrono::milliseconds timeout = 2s);

private:
    int fd_ = -1;
    VmKey key_;
    UdpSealer sealer_;
    UdpOpener opener_;
};

VmKey read_key(const std::filesystem::path &file);  // throws on failure

inline std::string describe(const Error &e) {
    return e.describe();
}

// The value of a result the test needs, or a failed REQUIRE with its error.
template <class T>
T value_of(Result<T> r) {
    REQUIRE_MESSAGE(r.ok(), (r ? "" : describe(r.error())));
    return std::move(r).value();
}

// Runs a program with a deadline, capturing stdout and stderr.
struct RunResult {
    int wait_status = -1;  // as from waitpid; -1 when it had to be killed
    bool timed_out = false;
    std::string out, err;
    bool exited_ok() const;
    int exit_code() const;  // -1 unless it exited normally
};
RunResult run_program(const std::vector<std::string> &argv, std::chrono::milliseconds timeout,
                      const std::vector<std::string> &extra_env = {});

std::filesystem::path hconsole_path();  // empty when hconsole was not built

// True while process pid exists and is not a zombie.
bool process_alive(pid_t pid);

}  // namespace harness::it
