// VM membership: who is in the virtual machine and who is alive.
//
// Every daemon heartbeats every live member over sealed UDP each period; a
// heartbeat carries the sender's view of the members (gossip, so a newcomer
// reaches everybody even if it only knew one daemon) and the components it
// has loaded (so "where is X loaded" is answered locally). A member silent
// past the timeout is declared failed by each daemon on its own. Failed is not
// final: a failed member whose heartbeat arrives directly again (a link came
// back, a frozen process resumed) rejoins as a new incarnation and the hooks
// hear "joined" again. Failed members are probed with a heartbeat once per
// timeout, so both sides of a healed partition hear each other even though
// neither heartbeats the other at the normal rate. A daemon that was itself
// not scheduled for longer than the timeout (SIGSTOP, a stalled VM) cannot
// judge the others' silence: it gives them a fresh timeout instead of
// declaring them failed, and starts a new incarnation of its own. A daemon
// that stops cleanly says so in a last heartbeat: the others mark it left
// at once (for the hooks, a failure) and never probe it again.
// Subscribers (plugins, through the host API) hear of joins and failures on
// the I/O thread.
#pragma once

#include <harness/common/endpoint.hpp>
#include <harness/common/loader.hpp>
#include <harness/common/log.hpp>
#include <harness/common/pack.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace harness::hcore {

using SteadyClock = std::chrono::steady_clock;

struct MemberInfo {
    std::string id;
    Endpoint tcp;
    Endpoint udp;
    bool alive = true;
    SteadyClock::time_point last_heard;
    std::vector<ComponentName> loaded;     // as last gossiped by that member
    std::uint64_t incarnation = 1;         // +1 each time it rejoins after being declared failed
    bool left = false;                     // not alive because it said it was stopping
    SteadyClock::time_point last_probe{};  // while failed: the last heartbeat sent to it
};

class Membership {
public:
    using SendDatagram = std::function<void(const Endpoint &to, Bytes frame)>;
    using LocalLoaded = std::function<std::vector<ComponentName>()>;
    using Hook = std::function<void(const std::string &member_id, bool alive)>;

    Membership(boost::asio::io_context &io, MemberInfo self, std::string vm, std::chrono::milliseconds period,
               std::chrono::milliseconds timeout, Logger &log);

    void start(SendDatagram send, LocalLoaded local_loaded);
    void stop();

    // A daemon asked to join (TCP JOIN); returns the body of the reply.
    Result<Bytes> handle_join(std::span<const std::uint8_t> body);
    void handle_heartbeat(std::span<const std::uint8_t> body);
    // A clean stop: tells every live member that this daemon is going (a
    // last heartbeat that says so), so they mark it left at once.
    void announce_leave();
    bool left(const std::string &member_id) const;
    // Adds members from a JOIN reply (the joining side).
    Result<void> adopt_member_list(std::span<const std::uint8_t> members_body);

    Bytes encode_members() const;  // MEMBERS reply body
    std::vector<MemberInfo> snapshot() const;
    std::vector<std::string> holders_of(const ComponentName &name) const;  // live members incl. self
    std::size_t size() const;
    const MemberInfo &self() const { return self_; }
    const std::string &vm() const { return vm_; }

    // Thread-safe; hooks run on the I/O thread.
    void subscribe(Hook hook);

private:
    void tick();
    void add_or_refresh(const std::string &id, const Endpoint &tcp, const Endpoint &udp, bool direct,
                        std::uint64_t incarnation = 0);
    void notify(const std::string &id, bool alive);
    Bytes encode_heartbeat(bool leaving = false) const;
    void mark_left(const std::string &id, std::uint64_t incarnation);

    boost::asio::io_context &io_;
    MemberInfo self_;
    std::string vm_;
    std::chrono::milliseconds period_, timeout_;
    Logger &log_;
    boost::asio::steady_timer timer_;
    SteadyClock::time_point last_tick_{};
    SendDatagram send_;
    LocalLoaded local_loaded_;

    mutable std::mutex mutex_;                   // members_ is read from background threads
    std::map<std::string, MemberInfo> members_;  // everyone but self
    std::vector<Hook> hooks_;
};

}  // namespace harness::hcore
