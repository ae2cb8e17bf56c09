// What only the leader can do — replicated writes and linearizable reads —
// run here when this daemon's raft node leads, and are otherwise forwarded to
// the leader's daemon (the internal function `forward`) over Hlib. A call
// that finds no leader (an election is running) or a leader that just lost
// its role retries until the call's deadline, so a kill -9 of the leader
// costs a caller one election, not an error.
#include "service.hpp"

#include <harness/common/endpoint.hpp>
#include <harness/hlib/hlib.hpp>

#include <csignal>
#include <thread>

namespace harness::drd {

namespace {

using namespace std::chrono_literals;

const ComponentName kDrd{"vm", "drd"};

bool retryable(const Error &e) {
    return e.status == HARNESS_ERR_BUSY || e.status == HARNESS_ERR_UNREACHABLE ||
        e.status == HARNESS_ERR_MEMBER_FAILED ||
        e.status == HARNESS_ERR_AUTH /* a daemon restarting on the same port */;
}

void pack_outcome(Packer &out, const ApplyOutcome &o) {
    out.boolean(o.ok).boolean(o.existed).i64(o.version).i64(o.current_version);
}

Result<ApplyOutcome> unpack_outcome(const Bytes &reply) {
    Unpacker u(reply);
    ApplyOutcome o;
    if (!u.boolean(o.ok) || !u.boolean(o.existed) || !u.i64(o.version) || !u.i64(o.current_version))
        return make_error(HARNESS_ERR_PROTOCOL, "malformed reply from the drd leader");
    return o;
}

Result<std::vector<Record>> unpack_records(Unpacker &u) {
    std::int64_t n = 0;
    if (!u.i64(n) || n < 0) return make_error(HARNESS_ERR_PROTOCOL, "malformed record list");
    std::vector<Record> out;
    for (std::int64_t i = 0; i < n; ++i) {
        Record r;
        if (!u.str(r.key) || !u.bytes(r.value) || !u.i64(r.version))
            return make_error(HARNESS_ERR_PROTOCOL, "malformed record list");
        out.push_back(std::move(r));
    }
    return out;
}

// Retries op until it succeeds, fails for good, or the deadline passes.
template <class T, class Op>
Result<T> with_retries(Deadline deadline, Op op) {
    for (;;) {
        Result<T> r = op();
        if (r || !retryable(r.error()) || Clock::now() + 25ms >= deadline) return r;
        std::this_thread::sleep_for(25ms);
    }
}

}  // namespace

Result<Bytes> Service::call_member(const std::string &daemon_address, const std::string &function,
                                   std::span<const std::uint8_t> args, Deadline deadline) {
    std::unique_ptr<hlib::Daemon> d;
    {
        std::lock_guard lock(pool_mutex_);
        auto &idle = pool_[daemon_address];
        if (!idle.empty()) {
            d = std::move(idle.back());
            idle.pop_back();
        }
    }
    if (!d) {
        auto ep = parse_endpoint(daemon_address);
        if (!ep) return ep.error();
        auto conn = hlib::Connection::open_tcp(*ep, key_, deadline);
        if (!conn) return conn.error();
        d = std::make_unique<hlib::Daemon>(std::move(conn.value()));
    }
    auto r = d->call(kDrd, function, args, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline);
    if (d->connection().is_open()) {
        std::lock_guard lock(pool_mutex_);
        auto &idle = pool_[daemon_address];
        if (idle.size() < 8) idle.push_back(std::move(d));
    }
    return r;
}

Result<Bytes> Service::call_leader(const std::string &op, std::span<const std::uint8_t> args, Deadline deadline) {
    auto view = node_->view(deadline);
    if (!view) return view.error();
    if (view->leader_id == 0) return make_error(HARNESS_ERR_BUSY, "no drd leader elected yet");
    auto records = server_records();
    auto it = records.find(view->leader_id);
    if (it == records.end())
        return make_error(HARNESS_ERR_BUSY,
                          "the drd leader's daemon is not known yet (raft id " + std::to_string(view->leader_id) + ")");
    Packer p;
    p.str(op).bytes(args);
    return call_member(it->second.daemon_address, "forward", p.view(), deadline);
}

Result<ApplyOutcome> Service::replicate(const Command &command, Deadline deadline) {
    return with_retries<ApplyOutcome>(deadline, [&]() -> Result<ApplyOutcome> {
        auto local = node_->submit(command, deadline);
        if (local || !is_not_leader(local.error())) return local;
        Bytes entry = encode_command(command);
        auto reply = call_leader("apply", entry, deadline);
        if (!reply) return reply.error();
        return unpack_outcome(*reply);
    });
}

Result<std::optional<Record>> Service::linearizable_get(const std::string &key, Deadline deadline) {
    return with_retries<std::optional<Record>>(deadline, [&]() -> Result<std::optional<Record>> {
        auto b = node_->barrier(deadline);
        if (b) return store_->get(key);
        if (!is_not_leader(b.error())) return b.error();
        Packer p;
        p.str(key);
        auto reply = call_leader("get", p.view(), deadline);
        if (!reply) return reply.error();
        Unpacker u(*reply);
        bool found = false;
        Record r;
        r.key = key;
        if (!u.boolean(found) || !u.bytes(r.value) || !u.i64(r.version))
            return make_error(HARNESS_ERR_PROTOCOL, "malformed reply from the drd leader");
        if (!found) return std::optional<Record>();
        return std::optional<Record>(std::move(r));
    });
}

Result<std::vector<Record>> Service::linearizable_scan(const std::string &prefix, Deadline deadline) {
    return with_retries<std::vector<Record>>(deadline, [&]() -> Result<std::vector<Record>> {
        auto b = node_->barrier(deadline);
        if (b) return store_->scan(prefix);
        if (!is_not_leader(b.error())) return b.error();
        Packer p;
        p.str(prefix);
        auto reply = call_leader("scan", p.view(), deadline);
        if (!reply) return reply.error();
        Unpacker u(*reply);
        return unpack_records(u);
    });
}

// The leader's side of a forwarded call. Never forwards again: a daemon that
// is no longer leader answers BUSY and the origin looks for the new one.
Result<void> Service::forward(Unpacker &args, Packer &out) {
    std::string op;
    std::span<const std::uint8_t> body;
    if (!args.str(op) || !args.bytes(body) || !args.done())
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "vm/drd forward: malformed arguments, expected (str op, bytes args)");
    if (op != "apply" && op != "get" && op != "scan")
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "vm/drd forward: unknown op \"" + op + "\"");
    auto deadline = Clock::now() + 3500ms;
    if (op == "apply") {
        auto command = decode_command(body);
        if (!command) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "vm/drd forward: " + command.error().message);
        auto r = node_->submit(*command, deadline);
        if (!r) return r.error();
        if (!die_after_applying_.empty() && command->key == die_after_applying_ && !r->repeated) {
            log(2,
                "vm/drd: applied a write of " + command->key +
                    " and dies before answering (HARNESS_DRD_DIE_AFTER_APPLYING)");
            ::raise(SIGKILL);
        }
        pack_outcome(out, *r);
        return {};
    }
    Unpacker u(body);
    std::string key;
    if (!u.str(key) || !u.done()) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "vm/drd forward: malformed " + op);
    if (op == "get") {
        if (auto b = node_->barrier(deadline); !b) return b.error();
        auto r = store_->get(key);
        if (r)
            out.boolean(true).bytes(r->value).i64(r->version);
        else
            out.boolean(false).bytes({}).i64(0);
        return {};
    }
    // scan
    if (auto b = node_->barrier(deadline); !b) return b.error();
    auto records = store_->scan(key);
    out.i64(static_cast<std::int64_t>(records.size()));
    for (const auto &r : records) out.str(r.key).bytes(r.value).i64(r.version);
    return {};
}

}  // namespace harness::drd
