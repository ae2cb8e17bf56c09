// hcored: the daemon object that ties the parts together.
//
// One io_context on the main thread runs every socket, timer and completion
// (so request handling needs no locks on the fast path); a small background
// pool runs what may block — loading plugins (init may load more), joining a
// VM, inviting and halting peers. Requests arrive from StreamSession (TCP and
// Unix) and UdpEndpoint and are answered in handle_request().
#pragma once

#include "child_reaper.hpp"
#include "invoker.hpp"
#include "member_records.hpp"
#include "membership.hpp"
#include "plugin_directory.hpp"
#include "plugin_registry.hpp"
#include "request_context.hpp"
#include "root_dir.hpp"
#include "settings.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/protocol.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace harness::hcore {

class UdpEndpoint;
class ReadyReporter;

class Daemon {
public:
    Daemon(Settings settings, Logger &log, std::shared_ptr<Fetcher> fetcher,
           std::shared_ptr<PluginDirectory> directory);
    ~Daemon();

    // Binds, joins, preloads, reports ready, serves until stopped. Returns the
    // process exit code.
    int run(ReadyReporter &ready);
    void request_stop();

    void handle_request(const protocol::Header &h, std::span<const std::uint8_t> body, Via via, RawChannel *raw,
                        ReplyFn done);
    void handle_heartbeat(std::span<const std::uint8_t> body);

    // For the host API: loads into this daemon (re-entrant from plugin init),
    // and membership hooks (run on the I/O thread).
    Result<const LoadedPlugin *> load_component(const ComponentName &name) { return registry_->load(name); }
    void subscribe_members(Membership::Hook hook) { membership_->subscribe(std::move(hook)); }
    // Whether a member that is not alive stopped cleanly (left) rather than failed.
    bool member_left(const std::string &id) const { return membership_->left(id); }
    // Whether vm/drd is loaded here (the VM records it keeps are then reachable).
    bool drd_loaded() const;
    // ABI 1.1 host API: members as this daemon sees them (self included,
    // ordered by id; only self before serving starts), paths, and a PACKED
    // call of a component in this process on the calling thread.
    std::vector<MemberInfo> members() const;
    const std::string &root_text() const { return root_text_; }
    const std::string &key_file_text() const { return key_file_text_; }
    Result<const LoadedPlugin *> find_or_load(const ComponentName &name);
    bool plugins_stopping() const { return registry_->closed(); }
    // A plugin's code at `return_address` calls `callee` (shutdown order).
    void note_plugin_call(const void *return_address, const LoadedPlugin &callee) {
        registry_->note_call(return_address, callee);
    }
    const harness_host_api *host_api() const { return &host_api_; }

    // Sessions count themselves; past max_sessions() new connections are
    // closed at once, so the daemon keeps descriptors for plugins, handler
    // processes and fetches instead of running out (EMFILE).
    void session_opened() { ++open_sessions_; }
    void session_closed() { --open_sessions_; }
    std::chrono::milliseconds auth_timeout() const { return settings_.auth_timeout; }

    const VmKey &key() const { return key_; }
    const std::string &vm() const { return settings_.vm; }
    const std::string &id() const { return id_; }
    std::uint32_t max_body() const { return settings_.max_body; }
    Logger &log() { return log_; }

private:
    Result<void> bind_listeners();
    Result<void> join_vm(const Endpoint &via);
    Result<void> check_one_per_vm(const ComponentName &name);
    void load_services();  // settings_.services, in order; failures are warnings
    void accept_tcp();
    void accept_unix();
    void accept_later(const boost::system::error_code &ec, std::function<void()> accept);  // after a failed accept
    void send_heartbeat(const Endpoint &to, Bytes body);

    void handle_load(std::span<const std::uint8_t> body, ReplyFn done);
    void handle_call(std::span<const std::uint8_t> body, RawChannel *raw, ReplyFn done);
    void handle_resolve(std::span<const std::uint8_t> body, ReplyFn done);
    void handle_add(std::span<const std::uint8_t> body, ReplyFn done);
    void handle_invite(std::span<const std::uint8_t> body, ReplyFn done);
    void handle_halt(std::span<const std::uint8_t> body, ReplyFn done);
    void handle_claim(std::span<const std::uint8_t> body, ReplyFn done);
    void handle_publish(std::span<const std::uint8_t> body, ReplyFn done);
    Bytes encode_published() const;
    Result<void> claim(const ComponentName &name, const std::string &member_id);
    // The same claim as a DRD record, taken by compare-and-set, when vm/drd is
    // loaded here: no coordinator change can then grant it twice.
    Result<void> claim_in_drd(const ComponentName &name);
    Bytes encode_loaded() const;
    // Runs work on the background pool and its reply on the I/O thread.
    void in_background(std::function<Reply()> work, ReplyFn done);

    Settings settings_;
    Logger &log_;
    std::string id_;
    VmKey key_;
    std::optional<RootLock> lock_;
    std::string root_text_, key_file_text_;  // stable strings for the host API
    harness_host_api host_api_{};

    int open_sessions_ = 0;  // before io_: sessions die with the io_context
    int max_sessions_ = 0;
    bool too_many_sessions();  // logs (rate limited) when a connection is refused
    SteadyClock::time_point last_refusal_log_{};

    boost::asio::io_context io_;
    boost::asio::signal_set stop_signals_;
    boost::asio::thread_pool background_{2};
    boost::asio::ip::tcp::acceptor tcp_acceptor_;
    boost::asio::local::stream_protocol::acceptor unix_acceptor_;
    std::unique_ptr<UdpEndpoint> udp_;
    Endpoint tcp_address_, udp_address_;

    ChildReaper reaper_;
    std::unique_ptr<PluginRegistry> registry_;
    std::shared_ptr<PluginDirectory> directory_;
    std::unique_ptr<Membership> membership_;
    std::unique_ptr<MemberRecords> member_records_;  // vm/members/ in the DRD; stopped before plugins unload
    std::unique_ptr<Invoker> invoker_;
    std::atomic<bool> stopping_{false};

    // One-per-VM components claimed through this daemon while it coordinates.
    struct Claim {
        std::string member_id;
        SteadyClock::time_point at;
    };
    std::mutex claims_mutex_;
    std::map<ComponentName, Claim> claims_;
};

}  // namespace harness::hcore
