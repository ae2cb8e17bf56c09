// What a daemon asks of other daemons: joining a VM, inviting a daemon into
// ours, checking one-per-VM plugins, and halting the VM. These block on the
// network, so they run on the background pool (or before serving starts),
// never on the I/O thread, and every one has a deadline.
#include "daemon.hpp"
#include "local_drd.hpp"
#include "published_records.hpp"

#include <harness/hlib/hlib.hpp>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>

namespace harness::hcore {

using protocol::Type;

namespace {

constexpr auto kPeerTimeout = std::chrono::milliseconds(3000);

Result<Bytes> ask(const Endpoint &where, const VmKey &key, Type type, std::span<const std::uint8_t> body) {
    auto deadline = hlib::deadline_in(kPeerTimeout);
    auto conn = hlib::Connection::open_tcp(where, key, deadline);
    if (!conn) return conn.error();
    return conn->request(type, body, deadline);
}

}  // namespace

Result<void> Daemon::join_vm(const Endpoint &via) {
    Packer p;
    p.str(settings_.vm).str(id_).str(tcp_address_.to_string()).str(udp_address_.to_string());
    auto reply = ask(via, key_, Type::join, p.view());
    if (!reply)
        return make_error(reply.error().status,
                          "cannot join the VM at " + via.to_string() + ": " + reply.error().message);
    if (auto adopted = membership_->adopt_member_list(*reply); !adopted) return adopted;
    log_.info("joined VM " + settings_.vm + " through " + via.to_string() + " (" + std::to_string(membership_->size()) +
              " members)");
    return {};
}

Result<void> Daemon::check_one_per_vm(const ComponentName &name) {
    // First a claim: in the DRD when it runs here; else at the coordinator
    // (the live member with the smallest id), which serializes concurrent
    // loads while members' views of who is alive agree (they do, except for a
    // heartbeat timeout after a failure).
    auto members = membership_->snapshot();
    const MemberInfo *coordinator = nullptr;
    for (const auto &m : members)
        if (m.alive && (!coordinator || m.id < coordinator->id)) coordinator = &m;
    bool claimed_in_drd = false;
    if (drd_loaded()) {
        auto ok = claim_in_drd(name);
        if (!ok && ok.error().status == HARNESS_ERR_ALREADY_IN_VM) return ok;
        // A DRD that cannot answer (no leader, no quorum) must not make the
        // component unloadable: the coordinator's claim stands in for it.
        if (!ok)
            log_.warning("one-per-VM claim of " + name.to_string() + " in the DRD failed (" + ok.error().describe() +
                         "): claiming at the coordinator");
        claimed_in_drd = ok.ok();
    }
    if (!claimed_in_drd && coordinator->id == id_) {
        if (auto ok = claim(name, id_); !ok) return ok;
    } else if (!claimed_in_drd) {
        Packer p;
        p.str(name.package).str(name.component).str(id_);
        auto r = ask(coordinator->tcp, key_, Type::claim, p.view());
        if (!r && r.error().status == HARNESS_ERR_ALREADY_IN_VM) return r.error();
        if (!r) log_.warning("one-per-VM claim at coordinator " + coordinator->id + ": " + r.error().describe());
    }
    // Then ask every live member directly, in case a coordinator change let a
    // claim slip; gossip may be a heartbeat behind, so it is not trusted here.
    for (const auto &m : members) {
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
                return make_error(HARNESS_ERR_ALREADY_IN_VM,
                                  name.to_string() + " is one-per-VM and already loaded on member " + m.id);
    }
    return {};
}

Result<void> Daemon::claim(const ComponentName &name, const std::string &member_id) {
    // A claim holds while its member is alive and has the component loaded,
    // or for a grace period while that member is still loading it (a load that
    // failed after claiming must not block the VM forever).
    constexpr auto kLoadGrace = std::chrono::seconds(10);
    std::lock_guard lock(claims_mutex_);
    auto now = SteadyClock::now();
    auto it = claims_.find(name);
    if (it != claims_.end() && it->second.member_id != member_id) {
        bool holder_alive = false;
        for (const auto &m : membership_->snapshot())
            if (m.id == it->second.member_id) holder_alive = m.alive;
        auto holders = membership_->holders_of(name);
        bool holds = std::find(holders.begin(), holders.end(), it->second.member_id) != holders.end();
        if (holder_alive && (holds || now - it->second.at < kLoadGrace))
            return make_error(HARNESS_ERR_ALREADY_IN_VM,
                              name.to_string() + " is one-per-VM and already claimed by member " +
                                  it->second.member_id);
    }
    claims_[name] = Claim{member_id, now};
    return {};
}

Result<void> Daemon::claim_in_drd(const ComponentName &name) {
    // vm/claims/<package>/<component> = (str member id, i64 wall-clock ms of
    // the claim). A claim holds while its member is alive and has the
    // component loaded, or for a grace period while it is still loading.
    constexpr std::int64_t kLoadGraceMs = 10000;
    const std::string key = "vm/claims/" + name.package + "/" + name.component;
    auto now_ms = [] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
            .count();
    };
    for (int attempt = 0; attempt < 3; ++attempt) {
        Packer get;
        get.str(key).boolean(true);
        auto got = call_local_drd(&host_api_, "get", get);
        if (!got) return got.error();
        Unpacker u(*got);
        bool found = false;
        Bytes value;
        std::int64_t version = 0;
        if (!u.boolean(found) || !u.bytes(value) || !u.i64(version))
            return make_error(HARNESS_ERR_PROTOCOL, "vm/drd get " + key + ": malformed reply");
        if (found) {
            Unpacker v(value);
            std::string holder;
            std::int64_t at_ms = 0;
            if (v.str(holder) && v.i64(at_ms) && holder != id_) {
                bool holder_alive = false;
                for (const auto &m : membership_->snapshot())
                    if (m.id == holder) holder_alive = m.alive;
                auto holders = membership_->holders_of(name);
                bool holds = std::find(holders.begin(), holders.end(), holder) != holders.end();
                if (holder_alive && (holds || now_ms() - at_ms < kLoadGraceMs))
                    return make_error(HARNESS_ERR_ALREADY_IN_VM,
                                      name.to_string() + " is one-per-VM and already claimed by member " + holder);
            }
        }
        Packer mine;
        mine.str(id_).i64(now_ms());
        Packer cas;
        cas.str(key).i64(found ? version : 0).bytes(mine.view()).str("voters");
        auto r = call_local_drd(&host_api_, "cas", cas);
        if (!r) return r.error();
        Unpacker c(*r);
        bool ok = false;
        if (!c.boolean(ok)) return make_error(HARNESS_ERR_PROTOCOL, "vm/drd cas " + key + ": malformed reply");
        if (ok) return {};
        // Another daemon claimed it between our read and our write: look again.
    }
    return make_error(HARNESS_ERR_ALREADY_IN_VM,
                      name.to_string() + " is one-per-VM and being claimed by another member");
}

void Daemon::handle_claim(std::span<const std::uint8_t> body, ReplyFn done) {
    Unpacker u(body);
    ComponentName name;
    std::string member_id;
    if (!u.str(name.package) || !u.str(name.component) || !u.str(member_id) || !u.done())
        return done(error_reply(HARNESS_ERR_PROTOCOL, "malformed claim request"));
    auto r = claim(name, member_id);
    done(r ? Reply{HARNESS_OK, {}} : error_reply(r.error().status, r.error().message));
}

void Daemon::handle_add(std::span<const std::uint8_t> body, ReplyFn done) {
    Unpacker u(body);
    std::string text;
    if (!u.str(text) || !u.done()) return done(error_reply(HARNESS_ERR_PROTOCOL, "malformed add request"));
    auto target = parse_endpoint(text);
    if (!target) return done(error_reply(target.error().status, target.error().message));
    in_background(
        [this, target = *target] {
            Packer p;
            p.str(tcp_address_.to_string());
            auto reply = ask(target, key_, Type::invite, p.view());
            if (!reply)
                return error_reply(reply.error().status,
                                   "cannot add " + target.to_string() + ": " + reply.error().message);
            return Reply{HARNESS_OK, std::move(reply.value())};
        },
        std::move(done));
}

void Daemon::handle_invite(std::span<const std::uint8_t> body, ReplyFn done) {
    Unpacker u(body);
    std::string text;
    if (!u.str(text) || !u.done()) return done(error_reply(HARNESS_ERR_PROTOCOL, "malformed invite request"));
    auto via = parse_endpoint(text);
    if (!via) return done(error_reply(via.error().status, via.error().message));
    std::size_t alive = 0;
    for (const auto &m : membership_->snapshot()) alive += m.alive;
    if (alive > 1)
        return done(
            error_reply(HARNESS_ERR_INVALID_ARGUMENT,
                        "member " + id_ + " is already in a VM with " + std::to_string(alive - 1) + " other members"));
    in_background(
        [this, via = *via] {
            if (auto joined = join_vm(via); !joined) return error_reply(joined.error().status, joined.error().message);
            Packer p;
            p.str(id_);
            return Reply{HARNESS_OK, p.take()};
        },
        std::move(done));
}

void Daemon::handle_halt(std::span<const std::uint8_t> body, ReplyFn done) {
    Unpacker u(body);
    bool whole_vm = false;
    if (!u.boolean(whole_vm) || !u.done()) return done(error_reply(HARNESS_ERR_PROTOCOL, "malformed halt request"));
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

}  // namespace harness::hcore

namespace harness::hcore {

void Daemon::handle_publish(std::span<const std::uint8_t> body, ReplyFn done) {
    Unpacker u(body);
    std::string url;
    bool forwarded = false;
    std::uint64_t n = 0;
    if (!u.str(url) || !u.boolean(forwarded) || !u.u64(n) || n > 4096)
        return done(error_reply(HARNESS_ERR_PROTOCOL, "malformed publish request"));
    if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
        return done(
            error_reply(HARNESS_ERR_INVALID_ARGUMENT, "published repository " + url + " is not an http(s) URL"));
    std::vector<PublishedPlugin> entries;
    for (std::uint64_t i = 0; i < n; ++i) {
        PublishedPlugin e;
        e.repo_url = url;
        if (!u.str(e.name.package) || !u.str(e.name.component) || !u.str(e.version) || !u.str(e.info_json))
            return done(error_reply(HARNESS_ERR_PROTOCOL, "malformed publish request"));
        if (!is_valid_name_part(e.name.package) || !is_valid_name_part(e.name.component))
            return done(error_reply(HARNESS_ERR_INVALID_ARGUMENT, "invalid component name " + e.name.to_string()));
        entries.push_back(std::move(e));
    }
    if (!u.done()) return done(error_reply(HARNESS_ERR_PROTOCOL, "malformed publish request"));
    for (const auto &e : entries) {
        log_.info("published: " + e.name.to_string() + " " + e.version + " at " + e.repo_url);
        directory_->record(e);
    }
    if (forwarded) return done(Reply{HARNESS_OK, {}});
    // Tell every live member, and record it in the DRD for the daemons that
    // join or restart later; the publisher's answer waits for both, so when
    // hpublish returns, every daemon knows where to fetch.
    Bytes forward(body.begin(), body.end());
    in_background(
        [this, forward = std::move(forward), entries = std::move(entries)]() mutable {
            std::vector<std::string> failures;
            if (drd_loaded())
                if (auto r = write_published_records(&host_api_, entries); !r)
                    failures.push_back("the DRD: " + r.error().describe());
            Unpacker original(forward);
            std::string repo;
            original.str(repo);
            bool ignored;
            original.boolean(ignored);
            Packer p;
            p.str(repo).boolean(true).raw(original.rest());
            for (const auto &m : membership_->snapshot()) {
                if (m.id == id_ || !m.alive) continue;
                if (auto r = ask(m.tcp, key_, Type::publish, p.view()); !r)
                    failures.push_back("member " + m.id + ": " + r.error().describe());
            }
            if (!failures.empty()) {
                std::string text;
                for (const auto &f : failures) text += (text.empty() ? "" : "; ") + f;
                return error_reply(HARNESS_ERR_UNREACHABLE, "recorded here, but not everywhere: " + text);
            }
            return Reply{HARNESS_OK, {}};
        },
        std::move(done));
}

}  // namespace harness::hcore
