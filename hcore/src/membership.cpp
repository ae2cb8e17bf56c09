#include "membership.hpp"

#include <harness/common/protocol.hpp>

#include <boost/asio/post.hpp>

#include <algorithm>

namespace harness::hcore {

Membership::Membership(boost::asio::io_context &io, MemberInfo self, std::string vm, std::chrono::milliseconds period,
                       std::chrono::milliseconds timeout, Logger &log)
    : io_(io), self_(std::move(self)), vm_(std::move(vm)), period_(period), timeout_(timeout), log_(log), timer_(io) {}

void Membership::start(SendDatagram send, LocalLoaded local_loaded) {
    send_ = std::move(send);
    local_loaded_ = std::move(local_loaded);
    tick();
}

void Membership::stop() {
    timer_.cancel();
}

void Membership::subscribe(Hook hook) {
    std::lock_guard lock(mutex_);
    hooks_.push_back(std::move(hook));
}

void Membership::notify(const std::string &id, bool alive) {
    std::vector<Hook> hooks;
    {
        std::lock_guard lock(mutex_);
        hooks = hooks_;
    }
    // Posted, so hooks always run on the I/O thread and never under our lock.
    for (auto &h : hooks) boost::asio::post(io_, [h, id, alive] { h(id, alive); });
}

void Membership::tick() {
    auto now = SteadyClock::now();
    std::vector<std::string> failed;
    std::vector<Endpoint> targets;
    {
        std::lock_guard lock(mutex_);
        bool was_frozen = last_tick_ != SteadyClock::time_point{} && now - last_tick_ > timeout_;
        if (was_frozen) {
            ++self_.incarnation;
            log_.warning(
                "this daemon was not scheduled for " +
                std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now - last_tick_).count()) +
                " ms: the others get a fresh timeout; incarnation " + std::to_string(self_.incarnation));
        }
        for (auto &[id, m] : members_) {
            if (!m.alive) {
                if (!m.left && now - m.last_probe >= timeout_) {
                    m.last_probe = now;
                    targets.push_back(m.udp);
                }
                continue;
            }
            if (was_frozen) m.last_heard = now;
            if (now - m.last_heard > timeout_) {
                m.alive = false;
                m.last_probe = now;
                failed.push_back(id);
            } else {
                targets.push_back(m.udp);
            }
        }
        last_tick_ = now;
    }
    for (const auto &id : failed) {
        log_.warning("member " + id + " silent for more than " + std::to_string(timeout_.count()) +
                     " ms: declared failed");
        notify(id, false);
    }
    if (!targets.empty()) {
        Bytes hb = encode_heartbeat();
        for (const auto &t : targets) send_(t, hb);
    }
    timer_.expires_after(period_);
    timer_.async_wait([this](const boost::system::error_code &ec) {
        if (!ec) tick();
    });
}

Bytes Membership::encode_heartbeat(bool leaving) const {
    Packer p;
    std::lock_guard lock(mutex_);
    p.str(vm_).str(self_.id).str(self_.tcp.to_string()).str(self_.udp.to_string()).u64(self_.incarnation);
    std::uint64_t alive = 0;
    for (const auto &[id, m] : members_) alive += m.alive;
    p.u64(alive);
    for (const auto &[id, m] : members_)
        if (m.alive) p.str(id).str(m.tcp.to_string()).str(m.udp.to_string());
    auto loaded = local_loaded_ ? local_loaded_() : std::vector<ComponentName>{};
    p.u64(loaded.size());
    for (const auto &c : loaded) p.str(c.package).str(c.component);
    // Trailing, so daemons that do not know it read the rest as before.
    if (leaving) p.boolean(true);
    return p.take();
}

void Membership::announce_leave() {
    if (!send_) return;
    std::vector<Endpoint> targets;
    {
        std::lock_guard lock(mutex_);
        for (const auto &[id, m] : members_)
            if (m.alive) targets.push_back(m.udp);
    }
    Bytes hb = encode_heartbeat(true);
    // Twice: a lost datagram would leave the others waiting for the timeout.
    for (int copy = 0; copy < 2; ++copy)
        for (const auto &t : targets) send_(t, hb);
}

bool Membership::left(const std::string &member_id) const {
    std::lock_guard lock(mutex_);
    auto it = members_.find(member_id);
    return it != members_.end() && it->second.left;
}

void Membership::mark_left(const std::string &id, std::uint64_t incarnation) {
    {
        std::lock_guard lock(mutex_);
        auto it = members_.find(id);
        if (it == members_.end() || it->second.left || incarnation < it->second.incarnation) return;
        it->second.alive = false;
        it->second.left = true;
    }
    log_.info("member " + id + " left the VM");
    notify(id, false);
}

void Membership::add_or_refresh(const std::string &id, const Endpoint &tcp, const Endpoint &udp, bool direct,
                                std::uint64_t incarnation) {
    if (id == self_.id) return;
    bool added = false, rejoined = false;
    std::uint64_t now_incarnation = 0;
    {
        std::lock_guard lock(mutex_);
        auto it = members_.find(id);
        if (it == members_.end()) {
            // A member learned second hand gets a full timeout to be heard from.
            MemberInfo m{id, tcp, udp, true, SteadyClock::now(), {}};
            m.incarnation = std::max<std::uint64_t>(incarnation, 1);
            members_.emplace(id, std::move(m));
            added = true;
        } else if (direct && it->second.alive) {
            it->second.last_heard = SteadyClock::now();
            it->second.incarnation = std::max(it->second.incarnation, incarnation);
        } else if (direct && it->second.left && incarnation <= it->second.incarnation) {
            // A heartbeat sent before its leave (reordered): it is gone.
        } else if (direct) {
            // Heard from directly after being declared failed: only the member
            // itself can bring it back, never gossip about it.
            MemberInfo &m = it->second;
            m.left = false;
            m.alive = true;
            m.last_heard = SteadyClock::now();
            m.tcp = tcp;
            m.udp = udp;
            m.incarnation = std::max(m.incarnation + 1, incarnation);
            m.loaded.clear();
            now_incarnation = m.incarnation;
            rejoined = true;
        }
    }
    if (added) {
        log_.info("member " + id + " joined (tcp " + tcp.to_string() + ")");
        notify(id, true);
    }
    if (rejoined) {
        log_.info("member " + id + " rejoined after being declared failed (incarnation " +
                  std::to_string(now_incarnation) + ")");
        notify(id, true);
    }
}

void Membership::handle_heartbeat(std::span<const std::uint8_t> body) {
    Unpacker u(body);
    std::string vm, id, tcp, udp;
    std::uint64_t incarnation = 0, n = 0;
    if (!u.str(vm) || !u.str(id) || !u.str(tcp) || !u.str(udp) || !u.u64(incarnation) || !u.u64(n)) {
        log_.warning("malformed heartbeat ignored");
        return;
    }
    if (vm != vm_) {
        log_.warning("heartbeat from member " + id + " of another VM (" + vm + ") ignored");
        return;
    }
    auto tcp_e = parse_endpoint(tcp);
    auto udp_e = parse_endpoint(udp);
    if (!tcp_e || !udp_e) return;
    struct Gossiped {
        std::string id;
        Endpoint tcp, udp;
    };
    // What follows the sender's own fields is read as far as it is well
    // formed; the sender counts as heard either way.
    std::vector<Gossiped> gossip;
    bool complete = true;
    for (std::uint64_t i = 0; complete && i < n && i < 4096; ++i) {
        std::string mid, mtcp, mudp;
        complete = u.str(mid) && u.str(mtcp) && u.str(mudp);
        auto a = parse_endpoint(mtcp), b = parse_endpoint(mudp);
        complete = complete && a && b;
        if (complete) gossip.push_back({std::move(mid), *a, *b});
    }
    std::uint64_t m = 0;
    std::vector<ComponentName> loaded;
    complete = complete && u.u64(m);
    for (std::uint64_t i = 0; complete && i < m && i < 4096; ++i) {
        ComponentName c;
        complete = u.str(c.package) && u.str(c.component);
        if (complete) loaded.push_back(std::move(c));
    }
    bool leaving = false;
    if (complete && !u.done() && !u.boolean(leaving)) leaving = false;
    if (leaving) {
        // Known to us or not, the sender is going: nothing of it is added.
        mark_left(id, incarnation);
        return;
    }
    add_or_refresh(id, *tcp_e, *udp_e, true, incarnation);
    for (const auto &g : gossip) {
        bool known;
        {
            std::lock_guard lock(mutex_);
            known = members_.count(g.id) > 0;
        }
        if (!known) add_or_refresh(g.id, g.tcp, g.udp, false);
    }
    if (!complete) return;
    std::lock_guard lock(mutex_);
    if (auto it = members_.find(id); it != members_.end()) it->second.loaded = std::move(loaded);
}

Result<Bytes> Membership::handle_join(std::span<const std::uint8_t> body) {
    Unpacker u(body);
    std::string vm, id, tcp, udp;
    if (!u.str(vm) || !u.str(id) || !u.str(tcp) || !u.str(udp) || !u.done())
        return make_error(HARNESS_ERR_PROTOCOL, "malformed join request");
    if (vm != vm_)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "this daemon is in VM \"" + vm_ + "\", not \"" + vm + "\"");
    if (id == self_.id) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "member id " + id + " is taken");
    auto tcp_e = parse_endpoint(tcp);
    auto udp_e = parse_endpoint(udp);
    if (!tcp_e || !udp_e) return make_error(HARNESS_ERR_PROTOCOL, "malformed join addresses");
    add_or_refresh(id, *tcp_e, *udp_e, true);  // a failed member asking again rejoins
    return encode_members();
}

Result<void> Membership::adopt_member_list(std::span<const std::uint8_t> members_body) {
    Unpacker u(members_body);
    std::uint64_t n = 0;
    if (!u.u64(n)) return make_error(HARNESS_ERR_PROTOCOL, "malformed member list");
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string id, tcp, udp;
        std::int32_t state = 0;
        std::int64_t silent = 0;
        if (!u.str(id) || !u.str(tcp) || !u.str(udp) || !u.i32(state) || !u.i64(silent))
            return make_error(HARNESS_ERR_PROTOCOL, "malformed member list");
        auto a = parse_endpoint(tcp), b = parse_endpoint(udp);
        if (!a || !b) return make_error(HARNESS_ERR_PROTOCOL, "malformed member address");
        if (state == HARNESS_MEMBER_ALIVE) add_or_refresh(id, *a, *b, true);
    }
    return {};
}

Bytes Membership::encode_members() const {
    auto now = SteadyClock::now();
    Packer p;
    std::lock_guard lock(mutex_);
    p.u64(members_.size() + 1);
    p.str(self_.id).str(self_.tcp.to_string()).str(self_.udp.to_string()).i32(HARNESS_MEMBER_ALIVE).i64(0);
    for (const auto &[id, m] : members_) {
        auto silent = std::chrono::duration_cast<std::chrono::milliseconds>(now - m.last_heard).count();
        p.str(id).str(m.tcp.to_string()).str(m.udp.to_string());
        p.i32(m.alive ? HARNESS_MEMBER_ALIVE : m.left ? HARNESS_MEMBER_LEFT : HARNESS_MEMBER_FAILED).i64(silent);
    }
    return p.take();
}

std::vector<MemberInfo> Membership::snapshot() const {
    std::lock_guard lock(mutex_);
    std::vector<MemberInfo> out{self_};
    for (const auto &[id, m] : members_) out.push_back(m);
    return out;
}

std::vector<std::string> Membership::holders_of(const ComponentName &name) const {
    std::vector<std::string> out;
    if (local_loaded_) {
        auto mine = local_loaded_();
        if (std::find(mine.begin(), mine.end(), name) != mine.end()) out.push_back(self_.id);
    }
    std::lock_guard lock(mutex_);
    for (const auto &[id, m] : members_)
        if (m.alive && std::find(m.loaded.begin(), m.loaded.end(), name) != m.loaded.end()) out.push_back(id);
    return out;
}

std::size_t Membership::size() const {
    std::lock_guard lock(mutex_);
    return members_.size() + 1;
}

}  // namespace harness::hcore
