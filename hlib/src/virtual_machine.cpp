// VirtualMachine: connecting, peer connections, membership and loading.
#include "io.hpp"
#include "wire.hpp"

#include <algorithm>
#include <cstdlib>

namespace harness::hlib {

using namespace detail;
using protocol::Type;

namespace {

Result<Connection> open_local(const ConnectOptions &o, const VmKey &key, Deadline deadline) {
    if (o.hcore) return Connection::open_tcp(*o.hcore, key, deadline);
    return Connection::open_unix(o.root / "var" / "hcored.sock", key, deadline);
}

}  // namespace

Result<VirtualMachine> VirtualMachine::connect(const ConnectOptions &options) {
    ConnectOptions o = options.resolved();
    if (!options.hcore && !o.hcore) {
        if (const char *h = std::getenv("HARNESS_HCORE"); h && *h) {
            auto bad = parse_endpoint(h);
            return make_error(HARNESS_ERR_INVALID_ARGUMENT, "HARNESS_HCORE: " + bad.error().message);
        }
    }
    auto key = load_key(o.key_file);
    if (!key) return key.error();
    auto conn = open_local(o, *key, deadline_in(o.timeout));
    if (!conn) return conn.error();
    VirtualMachine vm;
    vm.options_ = std::move(o);
    vm.key_ = std::move(*key);
    vm.local_ = std::make_unique<Daemon>(std::move(*conn));
    return vm;
}

Result<Daemon *> VirtualMachine::local_daemon(Deadline deadline) {
    if (local_->connection().is_open()) return local_.get();
    auto conn = open_local(options_, key_, deadline);
    if (!conn) return conn.error();
    local_->connection() = std::move(*conn);  // in place, as in daemon_at
    return local_.get();
}

std::optional<Member> VirtualMachine::known_member(const std::string &member_id, Deadline deadline) {
    auto find = [&]() -> std::optional<Member> {
        for (const auto &m : members_)
            if (m.id == member_id) return m;
        return std::nullopt;
    };
    if (auto m = find()) return m;
    (void)members_refresh(deadline);
    return find();
}

Result<std::vector<Member>> VirtualMachine::members_refresh(Deadline deadline) {
    auto local = local_daemon(deadline);
    if (!local) return local.error();
    auto m = (*local)->members(deadline);
    if (m) {
        members_ = *m;
        members_refreshed_at_ = Clock::now();
    }
    return m;
}

Result<std::vector<Member>> VirtualMachine::members() {
    return members_refresh(deadline_in(options_.timeout));
}

Result<Daemon *> VirtualMachine::daemon_for(const std::string &member_id, Transport transport, Deadline deadline) {
    if (transport != Transport::udp && member_id == local_id()) return local_daemon(deadline);
    auto m = known_member(member_id, deadline);
    if (!m) return make_error(HARNESS_ERR_NOT_FOUND, "no member " + member_id + " in the VM");
    return daemon_at(member_id, m->tcp, m->udp, transport, deadline);
}

Result<Daemon *> VirtualMachine::daemon_at(const std::string &member_id, const Endpoint &tcp, const Endpoint &udp,
                                           Transport transport, Deadline deadline) {
    bool via_udp = transport == Transport::udp;
    if (!via_udp && member_id == local_id()) return local_daemon(deadline);
    std::string key = (via_udp ? "udp:" : "tcp:") + member_id;
    auto it = std::find_if(peers_.begin(), peers_.end(), [&](const auto &p) { return p.first == key; });
    if (it != peers_.end() && it->second->connection().is_open()) return it->second.get();
    auto conn = via_udp ? Connection::open_udp(udp, key_, deadline) : Connection::open_tcp(tcp, key_, deadline);
    if (!conn) return conn.error();
    if (!via_udp && conn->peer_id() != member_id)
        return make_error(HARNESS_ERR_UNREACHABLE,
                          "member " + member_id + " is no longer at " + tcp.to_string() + " (" + conn->peer_id() +
                              " answers there)");
    if (it != peers_.end()) {
        // Reconnect in place: a fan-out may still hold this Daemon's address.
        it->second->connection() = std::move(*conn);
        return it->second.get();
    }
    peers_.emplace_back(key, std::make_unique<Daemon>(std::move(*conn)));
    return peers_.back().second.get();
}

Error VirtualMachine::refine_peer_error(const std::string &member_id, Error error, Deadline deadline) {
    // A peer that does not answer may have been declared failed meanwhile;
    // say so, it is the more useful diagnosis.
    if (error.status != HARNESS_ERR_UNREACHABLE && error.status != HARNESS_ERR_TIMEOUT) return error;
    if (member_id == local_id()) return error;
    // One MEMBERS round trip per burst of failures, not one per failure.
    auto now = Clock::now();
    if (now - members_refreshed_at_ > std::chrono::milliseconds(100))
        (void)members_refresh(std::max(deadline, now + std::chrono::milliseconds(500)));
    for (const auto &m : members_)
        if (m.id == member_id && !m.alive)
            return make_error(HARNESS_ERR_MEMBER_FAILED, member_id + " (" + error.describe() + ")");
    return error;
}

Result<std::vector<std::string>> VirtualMachine::where_loaded(const ComponentName &name) {
    auto deadline = deadline_in(options_.timeout);
    auto local = local_daemon(deadline);
    if (!local) return local.error();
    return (*local)->locate(name, deadline);
}

std::vector<PerDaemon<std::string>> VirtualMachine::load(const ComponentName &name, const Placement &where) {
    auto deadline = deadline_in(options_.timeout);
    std::vector<std::string> ids;
    std::vector<PerDaemon<std::string>> out;
    auto fail_all = [&](const Error &e) {
        out.push_back({local_->connection().peer_id(), e});
        return out;
    };
    using Kind = Placement::Kind;
    if (where.kind == Kind::local) {
        ids.push_back(local_id());
    } else if (where.kind == Kind::one || where.kind == Kind::list) {
        if (where.member_ids.empty()) return fail_all(make_error(HARNESS_ERR_INVALID_ARGUMENT, "no member ids given"));
        ids = where.member_ids;
        if (where.kind == Kind::one) ids.resize(1);
    } else {
        auto members = members_refresh(deadline);
        if (!members) return fail_all(members.error());
        if (where.kind == Kind::all) {
            for (const auto &m : *members)
                if (m.alive) ids.push_back(m.id);
        } else {  // single_instance: where it already runs, else here
            std::string chosen = local_id();
            auto located = local_->locate(name, deadline);
            if (located)
                for (const auto &id : *located)
                    if (auto m = known_member(id, deadline); m && m->alive) {
                        chosen = id;
                        if (id == local_id()) break;
                    }
            ids.push_back(chosen);
        }
    }

    std::vector<Target> targets;
    for (const auto &id : ids) {
        Target t{id, {}, {}, encode_component(name)};
        if (id != local_id()) {
            auto m = known_member(id, deadline);
            if (!m) {
                out.push_back({id, make_error(HARNESS_ERR_NOT_FOUND, "no member " + id + " in the VM")});
                continue;
            }
            t.tcp = m->tcp;
            t.udp = m->udp;
        }
        targets.push_back(std::move(t));
    }
    for (auto &r : fan_out(targets, Type::load, Transport::tcp, deadline)) {
        if (!r.result)
            out.push_back({r.member_id, r.result.error()});
        else
            out.push_back({r.member_id, decode_single_str(*r.result, "LOAD")});
    }
    return out;
}

}  // namespace harness::hlib
