// What a daemon asks of other daemons: joining a VM, inviting a daemon into
// ours, checking one-per-VM plugins, and halting the VM. These block on the
// network, so they run on the background pool (or before serving starts),
// never on the I/O thread, and every one has a deadline.
#include "daemon.hpp"

#include <harness/hlib.hpp>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

namespace harness::hcore {

using protocol::Type;

namespace {

constexpr auto kPeerTimeout = std::chrono::milliseconds(3000);

Reply fail(int status, std::string_view message)
{
    Packer p;
    p.str(message);
    return Reply{status, p.take()};
}

Result<Bytes> ask(const Endpoint &where, const VmKey &key, Type type, std::span<const std::uint8_t> body)
{
    auto deadline = hlib::deadline_in(kPeerTimeout);
    auto conn = hlib::Connection::open_tcp(where, key, deadline);
    if (!conn) return conn.error();
    return conn->request(type, body, deadline);
}

} // namespace

Result<void> Daemon::join_vm(const Endpoint &via)
{
    Packer p;
    p.str(settings_.vm).str(id_).str(tcp_address_.to_string()).str(udp_address_.to_string());
    auto reply = ask(via, key_, Type::join, p.view());
    if (!reply) return make_error(reply.error().status, "cannot join the VM at " + via.to_string() + ": " + reply.error().message);
    if (auto adopted = membership_->adopt_member_list(*reply); !adopted) return adopted;
    log_.info("joined VM " + settings_.vm + " through " + via.to_string() + " (" + std::to_string(membership_->size()) + " members)");
    return {};
}

Result<void> Daemon::check_one_per_vm(const ComponentName &name)
{
    // Ask every live member directly rather than trust gossip, which may be a
    // heartbeat behind. (Two loads racing on two daemons at the same instant
    // can still both pass; the replicated database closes that window.)
    for (const auto &m : membership_->snapshot()) {
        if (m.id == id_ || !m.alive) continue;
        auto deadline = hlib::deadline_in(kPeerTimeout);
        auto conn = hlib::Connection::open_tcp(m.tcp, key_, deadline);
        if (!conn) {
            log_.warning("one-per-VM check: member " + m.id + " unreachable: " + conn.error().describe());
            continue;
        }
        hlib::Daemon peer(std::move(conn.value()));
        auto loaded = peer.loaded(deadline);
        if (!loaded) {
            log_.warning("one-per-VM check: member " + m.id + ": " + loaded.error().describe());
            continue;
        }
        for (const auto &c : *loaded)
            if (c.name == name)
                return make_error(HARNESS_ERR_ALREADY_IN_VM, name.to_string() + " is one-per-VM and already loaded on member " + m.id);
    }
    return {};
}

void Daemon::handle_add(std::span<const std::uint8_t> body, ReplyFn done)
{
    Unpacker u(body);
    std::string text;
    if (!u.str(text) || !u.done()) return done(fail(HARNESS_ERR_PROTOCOL, "malformed add request"));
    auto target = parse_endpoint(text);
    if (!target) return done(fail(target.error().status, target.error().message));
    in_background(
        [this, target = *target] {
            Packer p;
            p.str(tcp_address_.to_string());
            auto reply = ask(target, key_, Type::invite, p.view());
            if (!reply) return fail(reply.error().status, "cannot add " + target.to_string() + ": " + reply.error().message);
            return Reply{HARNESS_OK, std::move(reply.value())};
        },
        std::move(done));
}

void Daemon::handle_invite(std::span<const std::uint8_t> body, ReplyFn done)
{
    Unpacker u(body);
    std::string text;
    if (!u.str(text) || !u.done()) return done(fail(HARNESS_ERR_PROTOCOL, "malformed invite request"));
    auto via = parse_endpoint(text);
    if (!via) return done(fail(via.error().status, via.error().message));
    std::size_t alive = 0;
    for (const auto &m : membership_->snapshot()) alive += m.alive;
    if (alive > 1)
        return done(fail(HARNESS_ERR_INVALID_ARGUMENT, "member " + id_ + " is already in a VM with " +
                                                            std::to_string(alive - 1) + " other members"));
    in_background(
        [this, via = *via] {
            if (auto joined = join_vm(via); !joined) return fail(joined.error().status, joined.error().message);
            Packer p;
            p.str(id_);
            return Reply{HARNESS_OK, p.take()};
        },
        std::move(done));
}

void Daemon::handle_halt(std::span<const std::uint8_t> body, ReplyFn done)
{
    Unpacker u(body);
    bool whole_vm = false;
    if (!u.boolean(whole_vm) || !u.done()) return done(fail(HARNESS_ERR_PROTOCOL, "malformed halt request"));
    log_.info(whole_vm ? "halting the whole VM on request" : "halting on request");
    auto stop_soon = [this] {
        // Let the reply leave before the I/O loop stops.
        auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(50));
        timer->async_wait([this, timer](const boost::system::error_code &) { request_stop(); });
    };
    if (!whole_vm) {
        done(Reply{HARNESS_OK, {}});
        return stop_soon();
    }
    in_background(
        [this] {
            Packer p;
            p.boolean(false);
            for (const auto &m : membership_->snapshot()) {
                if (m.id == id_ || !m.alive) continue;
                if (auto r = ask(m.tcp, key_, Type::halt, p.view()); !r)
                    log_.warning("halt of member " + m.id + ": " + r.error().describe());
            }
            return Reply{HARNESS_OK, {}};
        },
        [done = std::move(done), stop_soon](Reply r) {
            done(std::move(r));
            stop_soon();
        });
}

} // namespace harness::hcore
