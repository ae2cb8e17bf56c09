// harness/hlib/hlib.hpp — Hlib, the client library of a HARNESS virtual machine.
//
// The seed paper's five classes of operation:
//   1. locate and load a package into one daemon, a list, or all of a VM;
//   2. get a function reference (the first found, or one per daemon);
//   3. status and enquiry (members and liveness, what is loaded where);
//   4. invoke: synchronous, asynchronous (a future), parallel over daemons
//      with one result or error per daemon — a dead daemon is an error for its
//      part, never a hang (every wait has a deadline);
//   5. marshalling: raw socket, explicit pack/unpack (harness/common/pack.hpp), and
//      automatic typed calls checked against the plugin's signature.
// Plus direct invocation: DirectPlugin loads a component into this process.
//
// Hlib uses plain blocking sockets with poll() deadlines and no threads of its
// own (call_async uses one per call, and a fan-out opens several new peer
// connections concurrently), so it is cheap to link into MPI ranks. One
// VirtualMachine is used by one thread at a time; call_async's threads use
// connections of their own.
#pragma once

#include <harness/common/crypto.hpp>
#include <harness/common/endpoint.hpp>
#include <harness/common/loader.hpp>
#include <harness/common/pack.hpp>
#include <harness/common/protocol.hpp>
#include <harness/common/result.hpp>
#include <harness/common/types.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace harness::hlib {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
inline Deadline deadline_in(std::chrono::milliseconds d) {
    return Clock::now() + d;
}

enum class Transport { unix_socket, tcp, udp };

// How a tool reaches its daemon (docs/tools.md, "Common options"): --hcore HOST:PORT, else the
// Unix socket of --root; the key is --key, else <root>/vm.key.
struct ConnectOptions {
    std::filesystem::path root;      // default: $HARNESS_ROOT or ~/.harness
    std::optional<Endpoint> hcore;   // default: $HARNESS_HCORE, else the Unix socket
    std::filesystem::path key_file;  // default: $HARNESS_KEY or <root>/vm.key
    std::chrono::milliseconds timeout{5000};

    // Fills unset fields from the environment and defaults.
    ConnectOptions resolved() const;

    // The common options of a command-line tool (docs/tools.md): --root,
    // --key, --hcore host:port and --timeout; an empty string leaves the
    // field to resolved(). An --hcore that is not host:port is an error
    // that names the option.
    static Result<ConnectOptions>
    from_command_line(const std::string &root, const std::string &key, const std::string &hcore,
                      std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
};

// One authenticated channel to one daemon. TCP and Unix channels are
// connections; a UDP channel seals each datagram and retries a request with
// the same request id until the deadline (the daemon replays its answer).
class Connection {
public:
    static Result<Connection> open_unix(const std::filesystem::path &socket, const VmKey &key, Deadline deadline);
    static Result<Connection> open_tcp(const Endpoint &where, const VmKey &key, Deadline deadline);
    static Result<Connection> open_udp(const Endpoint &where, const VmKey &key, Deadline deadline);

    Connection(Connection &&) noexcept;
    Connection &operator=(Connection &&) noexcept;
    ~Connection();

    // Sends a request and waits for its reply. A reply with a non-zero status
    // becomes an Error carrying the daemon's message.
    Result<Bytes> request(protocol::Type type, std::span<const std::uint8_t> body, Deadline deadline);
    // The two halves, for issuing to many daemons before waiting on any.
    Result<std::uint64_t> send_request(protocol::Type type, std::span<const std::uint8_t> body);
    Result<std::uint64_t> send_request(protocol::Type type, std::span<const std::uint8_t> body, Deadline deadline);
    Result<Bytes> receive_reply(std::uint64_t request_id, Deadline deadline);

    // For waiting on many connections with one poll(): call when fd() is
    // readable or wakeup_time() has come. Never waits for a reply that has not
    // started arriving; returns it once it is complete, otherwise nothing.
    Result<std::optional<Bytes>> try_receive_reply(std::uint64_t request_id, Deadline deadline);
    // Stop waiting for a request: its reply, if it comes, is dropped.
    void abandon(std::uint64_t request_id);
    // When this connection next needs attention without input (a UDP resend).
    Clock::time_point wakeup_time() const;
    // False once an error left the stream out of step; reconnect then.
    bool is_open() const { return fd_ >= 0; }

    int fd() const { return fd_; }
    Transport transport() const { return transport_; }
    const std::string &peer_id() const { return peer_id_; }  // the daemon's member id
    const std::string &vm() const { return vm_; }

private:
    Connection() = default;
    struct UdpState;
    struct Inbox;  // replies that arrived for another pending request id
    Result<std::optional<Bytes>> try_receive_stream(std::uint64_t request_id, Deadline deadline);
    Result<std::optional<Bytes>> try_receive_udp(std::uint64_t request_id, Deadline deadline);
    std::unique_ptr<Inbox> inbox_;
    int fd_ = -1;
    Transport transport_ = Transport::tcp;
    std::string peer_id_;
    std::string vm_;
    std::uint64_t next_request_id_ = 1;
    std::uint32_t max_body_ = protocol::kDefaultMaxBody;
    std::unique_ptr<UdpState> udp_;
};

struct Member {
    std::string id;
    Endpoint tcp;
    Endpoint udp;
    bool alive = true;
    bool left = false;           // not alive because it stopped cleanly (else: failed)
    std::int64_t silent_ms = 0;  // since its last heartbeat, as seen by the answering daemon
};

struct FunctionInfo {
    std::string name;
    harness_convention convention = HARNESS_CALL_PACKED;
    harness_mode default_mode = HARNESS_MODE_INLINE;
    std::string signature;
};

struct ComponentInfo {
    ComponentName name;
    std::string version;
    harness_level level = HARNESS_LEVEL_DAEMON;
    harness_instance_policy policy = HARNESS_PER_DAEMON;
    std::vector<FunctionInfo> functions;
};

// What RESOLVE answers: an application-level component's files on the
// daemon's host (in its lib/, plugin path or cache), and its version.
struct ResolvedComponent {
    ResolvedPlugin where;
    std::string version;
};

// The result of one daemon's part of a multi-daemon operation.
template <class T>
struct PerDaemon {
    std::string member_id;
    Result<T> result;
};

// A client of one daemon: every request of the protocol.
class Daemon {
public:
    explicit Daemon(Connection connection) : conn_(std::move(connection)) {}

    Result<void> ping(Deadline deadline);
    Result<std::string> load(const ComponentName &name, Deadline deadline);  // → version
    // Has the daemon find (and if need be fetch and verify) an
    // application-level component for this process, without loading it.
    Result<ResolvedComponent> resolve(const ComponentName &name, Deadline deadline);
    Result<Bytes> call(const ComponentName &name, std::string_view function, std::span<const std::uint8_t> packed_args,
                       harness_convention convention, harness_mode mode, Deadline deadline);
    // RAW convention: after the request is sent, talk(fd) speaks the plugin's
    // own protocol on the connection; then the daemon's final reply is read.
    Result<void> call_raw(const ComponentName &name, std::string_view function, harness_mode mode,
                          const std::function<Result<void>(int fd)> &talk, Deadline deadline);
    Result<std::vector<Member>> members(Deadline deadline);
    Result<std::vector<ComponentInfo>> loaded(Deadline deadline);
    Result<std::vector<std::string>> locate(const ComponentName &name, Deadline deadline);  // member ids
    Result<std::string> add(const Endpoint &host, Deadline deadline);                       // → new member id
    Result<void> halt(bool whole_vm, Deadline deadline);

    Connection &connection() { return conn_; }

private:
    Connection conn_;
};

// Where a load goes (class 1).
struct Placement {
    enum class Kind { local, one, list, all, single_instance } kind = Kind::local;
    std::vector<std::string> member_ids;  // for one (first id) and list
};

// A reference to a function on one daemon (class 2).
struct FunctionRef {
    std::string member_id;
    Endpoint tcp;
    Endpoint udp;
    ComponentName component;
    FunctionInfo function;
};

struct CallOptions {
    Transport transport = Transport::tcp;  // tcp or udp for remote daemons
    harness_mode mode = HARNESS_MODE_DEFAULT;
    std::chrono::milliseconds timeout{5000};
};

// A view of a whole VM through one daemon (classes 1–4).
class VirtualMachine {
public:
    static Result<VirtualMachine> connect(const ConnectOptions &options);

    // Class 1.
    std::vector<PerDaemon<std::string>> load(const ComponentName &name, const Placement &where);
    // Class 2.
    Result<FunctionRef> get_function(const ComponentName &name, std::string_view function);
    Result<std::vector<FunctionRef>> get_functions(const ComponentName &name, std::string_view function);
    // Class 3.
    Result<std::vector<Member>> members();
    std::vector<PerDaemon<std::vector<ComponentInfo>>> loaded_everywhere();
    Result<std::vector<std::string>> where_loaded(const ComponentName &name);

    // Class 4 with class 5 encodings.
    Result<Bytes> call_packed(const FunctionRef &f, std::span<const std::uint8_t> args, const CallOptions &o = {});
    std::vector<PerDaemon<Bytes>> call_packed_parallel(const std::vector<FunctionRef> &fs,
                                                       std::span<const std::uint8_t> args, const CallOptions &o = {});

    // Automatic encoding: checks R(A...) against the function's signature, packs
    // the arguments and unpacks the result.
    template <class R, class... A>
    Result<R> call(const FunctionRef &f, const CallOptions &o, const A &...args);
    template <class R, class... A>
    std::future<Result<R>> call_async(const FunctionRef &f, const CallOptions &o, const A &...args);
    template <class R, class... A>
    std::vector<PerDaemon<R>> call_parallel(const std::vector<FunctionRef> &fs, const CallOptions &o, const A &...args);

    Daemon &local() { return *local_; }
    const ConnectOptions &options() const { return options_; }
    const VmKey &key() const { return key_; }

    const std::string &local_id() const { return local_->connection().peer_id(); }

private:
    VirtualMachine() = default;
    Result<Daemon *> daemon_for(const std::string &member_id, Transport transport, Deadline deadline);
    Result<Daemon *> daemon_at(const std::string &member_id, const Endpoint &tcp, const Endpoint &udp,
                               Transport transport, Deadline deadline);
    Result<Daemon *> local_daemon(Deadline deadline);  // reconnects after a broken connection

    // One request to many daemons: all sent before any reply is awaited, and
    // replies collected with one poll() loop, so the total time is that of the
    // slowest daemon. A member the local daemon reports failed gets
    // HARNESS_ERR_MEMBER_FAILED without being contacted.
    struct Target {
        std::string member_id;
        Endpoint tcp;
        Endpoint udp;
        Bytes body;
    };
    std::vector<PerDaemon<Bytes>> fan_out(const std::vector<Target> &targets, protocol::Type type, Transport transport,
                                          Deadline deadline);
    // Opens the missing connections concurrently (a dead host must not use up
    // the others' time); returns the failures by member id.
    std::vector<std::pair<std::string, Error>> open_in_parallel(const std::vector<Target> &targets, Transport transport,
                                                                Deadline deadline);
    Result<std::vector<Member>> members_refresh(Deadline deadline);
    std::optional<Member> known_member(const std::string &member_id, Deadline deadline);
    Error refine_peer_error(const std::string &member_id, Error error, Deadline deadline);
    Result<Bytes> call_with_convention(const FunctionRef &f, std::span<const std::uint8_t> args, const CallOptions &o);
    // call_async's body: its own connection, usable from another thread.
    static Result<Bytes> call_detached(ConnectOptions options, VmKey key, std::string local_id, FunctionRef f,
                                       Bytes args, CallOptions o);

    ConnectOptions options_;
    VmKey key_;
    std::unique_ptr<Daemon> local_;
    // Connections to other daemons, opened on first use and kept; keyed by
    // "tcp:ID" or "udp:ID".
    std::vector<std::pair<std::string, std::unique_ptr<Daemon>>> peers_;
    std::vector<Member> members_;  // the last MEMBERS answer
    Clock::time_point members_refreshed_at_{};
};

// How DirectPlugin finds a component that is neither in <root>/lib nor in a
// valid <root>/cache entry: it asks the local daemon (RESOLVE), reached as
// Hlib connects — $HARNESS_HCORE, else <root>/var/hcored.sock, with
// $HARNESS_KEY or <root>/vm.key — which fetches it from its repositories and
// checks its signature under the daemon's own trust policy (--trust,
// --allow-unsigned), then loads it from the file the daemon names.
struct DirectLoadOptions {
    bool ask_daemon = true;
    std::chrono::milliseconds daemon_timeout{30000};  // connect + fetch + verify
    // How to reach the daemon instead (a tool's --hcore and --key); its
    // unset fields are filled by resolved(), its root defaulting to the one
    // the component is loaded from.
    std::optional<ConnectOptions> daemon;
};

// Direct invocation: an application-level component loaded into this process.
class DirectPlugin {
public:
    // Resolves <root>/lib → <root>/cache → the local daemon (see
    // DirectLoadOptions), refuses a daemon-level plugin (NOT_SUPPORTED) before
    // dlopen, checks the descriptor (ABI, function and interface tables) and
    // runs init. Errors name the component and say which step refused it;
    // nothing found anywhere is NOT_FOUND.
    static Result<std::unique_ptr<DirectPlugin>> load(const std::filesystem::path &root, const ComponentName &name);
    static Result<std::unique_ptr<DirectPlugin>> load(const std::filesystem::path &root, const ComponentName &name,
                                                      const DirectLoadOptions &options);
    ~DirectPlugin();  // runs fini

    // ABI 1.2: the ops table of the typed interface `name`, the highest
    // version the plugin exports that is at least min_version. NOT_FOUND when
    // the plugin exports no such interface or only older versions (the
    // message says which plugin, what it exports and what was asked for).
    // The table lives as long as this DirectPlugin.
    Result<const void *> interface(std::string_view name, std::uint32_t min_version) const;
    // The same, cast to the interface's ops struct (from its public header).
    template <class Ops>
    Result<const Ops *> interface_as(std::string_view name, std::uint32_t min_version) const {
        auto ops = interface(name, min_version);
        if (!ops) return ops.error();
        return static_cast<const Ops *>(*ops);
    }

    // A native pointer of exactly type Fn (e.g. std::int64_t(std::int64_t, std::int64_t)),
    // refused unless the plugin's signature says the same.
    template <class Fn>
    Result<Fn *> get(std::string_view function) const;
    Result<Bytes> call_packed(std::string_view function, std::span<const std::uint8_t> args) const;

    const LoadedLibrary &library() const { return *library_; }
    // Where it was loaded from (origin lib, cache, or fetched/cache through
    // the daemon).
    const ResolvedPlugin &location() const { return library_->location(); }

private:
    DirectPlugin() = default;
    Result<void (*)(void)> native(std::string_view function, std::string_view signature) const;
    std::unique_ptr<LoadedLibrary> library_;
    void *state_ = nullptr;
    const harness_host_api *host_ = nullptr;  // the process's host for this root (direct_host.cpp)
};

}  // namespace harness::hlib

#include <harness/hlib/hlib_inline.hpp>
