#include "service.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/endpoint.hpp>
#include <harness/hlib/hlib.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace harness::drd {

namespace {

using namespace std::chrono_literals;

// How long a call may wait for consensus before it reports a timeout; below
// Hlib's default 5 s call timeout and the daemon's 5 s shutdown grace.
constexpr auto kCallBudget = 4000ms;
// A watch waits at most this long per call (callers loop), so a stopping
// daemon never waits on a long poll.
constexpr std::int64_t kMaxWatchWaitMs = 1000;
constexpr std::size_t kMaxWatchBatch = 1000;

Error bad_args(const std::string &function, const std::string &expected) {
    return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                      "vm/drd " + function + ": malformed arguments, expected " + expected);
}

// A small integer from a file, or 0.
std::uint64_t read_number(const std::filesystem::path &file) {
    std::ifstream in(file);
    std::uint64_t v = 0;
    if (in >> v) return v;
    return 0;
}

Result<void> write_number(const std::filesystem::path &file, std::uint64_t v) {
    auto tmp = file.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << v << "\n";
        if (!out) return make_error(HARNESS_ERR_INTERNAL, "cannot write " + tmp);
    }
    std::error_code ec;
    std::filesystem::rename(tmp, file, ec);
    if (ec) return make_error(HARNESS_ERR_INTERNAL, "cannot write " + file.string() + ": " + ec.message());
    return {};
}

unsigned env_unsigned(const char *name, unsigned fallback) {
    const char *v = std::getenv(name);
    if (!v || !*v) return fallback;
    char *end = nullptr;
    unsigned long n = std::strtoul(v, &end, 10);
    return end && *end == '\0' && n > 0 && n < 1000000 ? static_cast<unsigned>(n) : fallback;
}

// Replication mode of a write: voters (default) or local.
Result<bool> is_local(const std::string &function, const std::string &replication) {
    if (replication.empty() || replication == "voters") return false;
    if (replication == "local") return true;
    return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                      "vm/drd " + function + ": unknown replication \"" + replication +
                          "\" (use \"voters\" or \"local\")");
}

void pack_records(Packer &out, const std::vector<Record> &records) {
    out.i64(static_cast<std::int64_t>(records.size()));
    for (const auto &r : records) out.str(r.key).bytes(r.value).i64(r.version);
}

}  // namespace

void Service::log(int level, const std::string &message) const {
    if (host_ && host_->log) host_->log(host_->host, level, message.c_str());
}

Result<std::unique_ptr<Service>> Service::create(const harness_host_api *host) {
    if (!HARNESS_HOST_HAS(host, list_members) || !HARNESS_HOST_HAS(host, root_dir) ||
        !HARNESS_HOST_HAS(host, key_file) || !HARNESS_HOST_HAS(host, member_id))
        return make_error(HARNESS_ERR_NOT_SUPPORTED, "vm/drd needs a daemon host with the ABI 1.1 host API");
    std::string root = host->root_dir(host->host);
    if (root.empty()) return make_error(HARNESS_ERR_NOT_SUPPORTED, "vm/drd runs in a daemon only (no root directory)");

    std::unique_ptr<Service> s(new Service());
    s->host_ = host;
    s->member_id_ = host->member_id(host->host);
    {
        char id[17];
        std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(random_u64()));
        s->client_ = "drd:" + s->member_id_ + ":" + id;
    }
    if (const char *key = std::getenv("HARNESS_DRD_DIE_AFTER_APPLYING")) s->die_after_applying_ = key;
    auto key = load_key(host->key_file(host->host));
    if (!key) return make_error(key.error().status, "vm/drd: VM key: " + key.error().message);
    s->key_ = std::move(key.value());

    auto dir = std::filesystem::path(root) / "var" / "vm" / "drd";
    auto raft_dir = dir / "raft";
    std::error_code ec;
    std::filesystem::create_directories(raft_dir, ec);
    if (ec) return make_error(HARNESS_ERR_INTERNAL, "vm/drd: cannot create " + raft_dir.string() + ": " + ec.message());
    auto store = Store::open(dir / "drd.sqlite");
    if (!store) return store.error();
    s->store_ = std::move(store.value());

    // The raft id stays with the root: a restarted daemon gets a new member
    // id but is the same raft server with the same log.
    std::uint64_t raft_id = read_number(dir / "raft_id");
    if (raft_id == 0) {
        raft_id = (random_u64() >> 1) | 1;
        if (auto w = write_number(dir / "raft_id", raft_id); !w) return w.error();
    }
    std::string host_name = "127.0.0.1";
    for (const auto &m : s->members()) {
        if (!m.is_self) continue;
        if (auto ep = parse_endpoint(m.address)) host_name = ep->host;
    }
    // A server with raft state resumes it. One without waits, listening, for
    // the membership thread to decide (formation.cpp): bootstrap the VM's
    // cluster when no other daemon's DRD runs raft or proposes to, else
    // start empty and be added by the leader (a node without a configuration
    // never votes, so it cannot form a rival cluster). The decision cannot be
    // made here: a daemon may load vm/drd long after the others started, or
    // at the same moment as they do.
    bool has_state = std::filesystem::exists(raft_dir / "metadata1") || std::filesystem::exists(raft_dir / "metadata2");
    RaftNodeOptions o;
    o.dir = raft_dir;
    o.id = raft_id;
    o.host = host_name;
    o.port = static_cast<std::uint16_t>(read_number(dir / "raft_port"));
    o.deferred = !has_state;
    o.key = s->key_;
    Service *self = s.get();
    o.log = [self](int level, const std::string &m) { self->log(level, m); };
    o.election_timeout_ms = env_unsigned("HARNESS_DRD_ELECTION_MS", 300);
    o.heartbeat_timeout_ms = env_unsigned("HARNESS_DRD_HEARTBEAT_MS", 30);
    o.snapshot_threshold = env_unsigned("HARNESS_DRD_SNAPSHOT_THRESHOLD", 1024);
    o.snapshot_trailing = env_unsigned("HARNESS_DRD_SNAPSHOT_TRAILING", o.snapshot_threshold / 2);
    o.store = s->store_.get();
    o.on_applied = [self](std::int64_t index) {
        std::lock_guard lock(self->applied_mutex_);
        self->applied_index_ = index;
        self->applied_cv_.notify_all();
    };
    auto node = RaftNode::start(std::move(o));
    if (!node) return node.error();
    s->node_ = std::move(node.value());
    if (has_state) s->formation_ = Formation::started;
    if (auto ep = parse_endpoint(s->node_->address())) {
        if (auto w = write_number(dir / "raft_port", ep->port); !w) return w.error();
    }
    s->log(1,
           "vm/drd: raft server " + std::to_string(raft_id) + " on " + s->node_->address() +
               (has_state ? " (resuming its log)" : " (forming: looking for the VM's cluster)"));

    if (host->subscribe_members) {
        host->subscribe_members(
            host->host,
            [](void *user, const char *, int) {
                auto *svc = static_cast<Service *>(user);
                std::lock_guard lock(svc->reconcile_mutex_);
                svc->members_changed_ = true;
                svc->reconcile_cv_.notify_all();
            },
            self);
    }
    s->reconciler_ = std::thread([self] { self->reconcile_loop(); });
    return s;
}

Service::~Service() {
    stopping_ = true;
    {
        std::lock_guard lock(reconcile_mutex_);
        reconcile_cv_.notify_all();
    }
    if (reconciler_.joinable()) reconciler_.join();
    node_.reset();
    {
        std::lock_guard lock(applied_mutex_);
        applied_cv_.notify_all();
    }
}

std::vector<MemberEntry> Service::members() const {
    std::vector<MemberEntry> out;
    host_->list_members(
        host_->host,
        [](void *user, const harness_member_info *m) {
            auto *v = static_cast<std::vector<MemberEntry> *>(user);
            v->push_back(MemberEntry{m->id ? m->id : "", m->address ? m->address : "", m->state == HARNESS_MEMBER_ALIVE,
                                     m->is_self != 0});
        },
        &out);
    return out;
}

std::map<std::uint64_t, ServerRecord> Service::server_records() const {
    std::map<std::uint64_t, ServerRecord> out;
    for (const auto &r : store_->scan(kServersPrefix)) {
        ServerRecord s;
        s.raft_id = std::strtoull(r.key.c_str() + std::strlen(kServersPrefix), nullptr, 10);
        Unpacker u(r.value);
        if (s.raft_id == 0 || !u.str(s.member_id) || !u.str(s.daemon_address)) continue;
        out[s.raft_id] = std::move(s);
    }
    return out;
}

// ---------------------------------------------------------------- functions

Result<void> Service::read_requester(Unpacker &args, const std::string &function, Command &command) {
    if (args.done()) {
        command.client = client_;
        command.request = next_request_.fetch_add(1);
        return {};
    }
    if (!args.str(command.client) || !args.i64(command.request) || !args.done())
        return bad_args(function, "a requester as (str client, i64 request) after the other arguments");
    if (command.client.empty() || command.client.size() > 256)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "vm/drd " + function + ": the client id must be 1 to 256 bytes");
    return {};
}

Result<void> Service::put(Unpacker &args, Packer &out) {
    std::string key, replication;
    Bytes value;
    if (!args.str(key) || !args.bytes(value) || !args.str(replication))
        return bad_args("put", "(str key, bytes value, str replication[, str client, i64 request])");
    Command command{Op::put, key, {}, 0};
    if (auto r = read_requester(args, "put", command); !r) return r.error();
    if (key.empty()) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "vm/drd put: empty key");
    auto local = is_local("put", replication);
    if (!local) return local.error();
    if (*local) {
        std::lock_guard lock(local_mutex_);
        auto v = store_->put_local(key, value);
        if (!v) return v.error();
        out.i64(*v);
        return {};
    }
    command.value = std::move(value);
    auto r = replicate(command, Clock::now() + kCallBudget);
    if (!r) return r.error();
    out.i64(r->version);
    return {};
}

Result<void> Service::cas(Unpacker &args, Packer &out) {
    std::string key, replication;
    std::int64_t expected = 0;
    Bytes value;
    if (!args.str(key) || !args.i64(expected) || !args.bytes(value) || !args.str(replication))
        return bad_args("cas",
                        "(str key, i64 expected_version, bytes value, str replication[, str client, i64 request])");
    Command command{Op::cas, key, {}, expected};
    if (auto r = read_requester(args, "cas", command); !r) return r.error();
    if (key.empty()) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "vm/drd cas: empty key");
    if (expected < 0) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "vm/drd cas: expected_version must be ≥ 0");
    auto local = is_local("cas", replication);
    if (!local) return local.error();
    if (*local) {
        std::lock_guard lock(local_mutex_);
        auto current = store_->get_local(key);
        std::int64_t current_version = current ? current->version : 0;
        if (current_version != expected) {
            out.boolean(false).i64(current_version);
            return {};
        }
        auto v = store_->put_local(key, value);
        if (!v) return v.error();
        out.boolean(true).i64(*v);
        return {};
    }
    command.value = std::move(value);
    auto r = replicate(command, Clock::now() + kCallBudget);
    if (!r) return r.error();
    out.boolean(r->ok).i64(r->current_version);
    return {};
}

Result<void> Service::get(Unpacker &args, Packer &out) {
    std::string key;
    bool linearizable = false;
    if (!args.str(key) || !args.boolean(linearizable) || !args.done())
        return bad_args("get", "(str key, bool linearizable)");
    // A local record has one copy, this one: any read of it is linearizable.
    std::optional<Record> found = store_->get_local(key);
    if (!found) {
        if (linearizable) {
            auto r = linearizable_get(key, Clock::now() + kCallBudget);
            if (!r) return r.error();
            found = std::move(r.value());
        } else {
            found = store_->get(key);
        }
    }
    if (found)
        out.boolean(true).bytes(found->value).i64(found->version);
    else
        out.boolean(false).bytes({}).i64(0);
    return {};
}

Result<void> Service::del(Unpacker &args, Packer &out) {
    std::string key;
    if (!args.str(key)) return bad_args("del", "(str key[, str client, i64 request])");
    Command command{Op::del, key, {}, 0};
    if (auto r = read_requester(args, "del", command); !r) return r.error();
    if (key.empty()) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "vm/drd del: empty key");
    bool existed_local = false;
    {
        std::lock_guard lock(local_mutex_);
        existed_local = store_->del_local(key);
    }
    auto r = replicate(command, Clock::now() + kCallBudget);
    if (!r) return r.error();
    out.boolean(existed_local || r->existed);
    return {};
}

Result<void> Service::scan(Unpacker &args, Packer &out) {
    std::string prefix;
    bool linearizable = false;
    if (!args.str(prefix) || !args.boolean(linearizable) || !args.done())
        return bad_args("scan", "(str prefix, bool linearizable)");
    std::vector<Record> replicated;
    if (linearizable) {
        auto r = linearizable_scan(prefix, Clock::now() + kCallBudget);
        if (!r) return r.error();
        replicated = std::move(r.value());
    } else {
        replicated = store_->scan(prefix);
    }
    // Local records shadow replicated ones with the same key.
    std::map<std::string, Record> merged;
    for (auto &r : replicated) merged[r.key] = std::move(r);
    for (auto &r : store_->scan_local(prefix)) merged[r.key] = std::move(r);
    std::vector<Record> all;
    all.reserve(merged.size());
    for (auto &[k, r] : merged) all.push_back(std::move(r));
    pack_records(out, all);
    return {};
}

Result<void> Service::watch(Unpacker &args, Packer &out) {
    std::string prefix;
    std::int64_t after = 0, wait_ms = 0;
    if (!args.str(prefix) || !args.i64(after) || !args.i64(wait_ms) || !args.done())
        return bad_args("watch", "(str prefix, i64 after_index, i64 wait_ms)");
    if (after < 0 || wait_ms < 0)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "vm/drd watch: negative after_index or wait_ms");
    auto until = Clock::now() + std::chrono::milliseconds(std::min(wait_ms, kMaxWatchWaitMs));
    std::vector<Change> changes;
    for (;;) {
        std::int64_t seen = 0;
        {
            std::lock_guard lock(applied_mutex_);
            seen = applied_index_;
        }
        changes = store_->changes(prefix, after, kMaxWatchBatch);
        if (!changes.empty() || stopping_) break;
        std::unique_lock lock(applied_mutex_);
        if (!applied_cv_.wait_until(lock, until, [&] { return applied_index_ != seen || stopping_.load(); })) break;
    }
    out.i64(changes.empty() ? after : changes.back().index).i64(static_cast<std::int64_t>(changes.size()));
    for (const auto &c : changes) out.i64(c.index).str(c.key).bytes(c.value).i64(c.version).boolean(c.deleted);
    return {};
}

Result<void> Service::status(Unpacker &args, Packer &out) {
    if (!args.done()) return bad_args("status", "no arguments");
    auto view = node_->view(Clock::now() + kCallBudget);
    if (!view) return view.error();
    auto records = server_records();
    auto name = [&](std::uint64_t id) {
        auto it = records.find(id);
        return it != records.end() ? it->second.member_id : "raft:" + std::to_string(id);
    };
    std::vector<std::string> voters, standbys;
    for (const auto &s : view->servers) {
        if (s.role == Role::voter)
            voters.push_back(name(s.id));
        else if (s.role == Role::standby)
            standbys.push_back(name(s.id));
    }
    out.str(view->leader_id ? name(view->leader_id) : "");
    out.i64(static_cast<std::int64_t>(voters.size()));
    for (const auto &v : voters) out.str(v);
    out.i64(static_cast<std::int64_t>(standbys.size()));
    for (const auto &v : standbys) out.str(v);
    out.i64(view->commit_index);
    return {};
}

Result<void> Service::raft_info(Unpacker &args, Packer &out) {
    if (!args.done()) return bad_args("raft_info", "no arguments");
    out.i64(static_cast<std::int64_t>(node_->id())).str(node_->address()).str(formation_name(formation_));
    return {};
}

}  // namespace harness::drd
