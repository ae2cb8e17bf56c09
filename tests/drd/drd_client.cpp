#include "drd_client.hpp"

namespace harness::drd::test {

namespace {

std::span<const std::uint8_t> as_span(const std::string &s) {
    return {reinterpret_cast<const std::uint8_t *>(s.data()), s.size()};
}

Error malformed(const std::string &function) {
    return make_error(HARNESS_ERR_PROTOCOL, "malformed reply to vm/drd " + function);
}

}  // namespace

Result<Bytes> DrdClient::call(const std::string &function, std::span<const std::uint8_t> args) {
    auto deadline = hlib::deadline_in(timeout_);
    if (!conn_ || !conn_->connection().is_open()) {
        conn_.reset();
        auto c = hlib::Connection::open_tcp(daemon_, key_, deadline);
        if (!c) return c.error();
        conn_.emplace(std::move(c.value()));
    }
    return conn_->call(ComponentName{"vm", "drd"}, function, args, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline);
}

Result<std::int64_t> DrdClient::put(const std::string &key, const std::string &value, const std::string &replication) {
    Packer p;
    p.str(key).bytes(as_span(value)).str(replication);
    auto r = call("put", p.view());
    if (!r) return r.error();
    Unpacker u(*r);
    std::int64_t version = 0;
    if (!u.i64(version) || !u.done()) return malformed("put");
    return version;
}

Result<std::pair<bool, std::int64_t>> DrdClient::cas(const std::string &key, std::int64_t expected,
                                                     const std::string &value, const std::string &replication) {
    Packer p;
    p.str(key).i64(expected).bytes(as_span(value)).str(replication);
    auto r = call("cas", p.view());
    if (!r) return r.error();
    Unpacker u(*r);
    bool ok = false;
    std::int64_t current = 0;
    if (!u.boolean(ok) || !u.i64(current) || !u.done()) return malformed("cas");
    return std::make_pair(ok, current);
}

Result<Found> DrdClient::get(const std::string &key, bool linearizable) {
    Packer p;
    p.str(key).boolean(linearizable);
    auto r = call("get", p.view());
    if (!r) return r.error();
    Unpacker u(*r);
    Found f;
    Bytes value;
    if (!u.boolean(f.found) || !u.bytes(value) || !u.i64(f.version) || !u.done()) return malformed("get");
    f.value.assign(value.begin(), value.end());
    return f;
}

Result<bool> DrdClient::del(const std::string &key) {
    Packer p;
    p.str(key);
    auto r = call("del", p.view());
    if (!r) return r.error();
    Unpacker u(*r);
    bool existed = false;
    if (!u.boolean(existed) || !u.done()) return malformed("del");
    return existed;
}

Result<std::vector<Item>> DrdClient::scan(const std::string &prefix, bool linearizable) {
    Packer p;
    p.str(prefix).boolean(linearizable);
    auto r = call("scan", p.view());
    if (!r) return r.error();
    Unpacker u(*r);
    std::int64_t n = 0;
    if (!u.i64(n) || n < 0) return malformed("scan");
    std::vector<Item> out;
    for (std::int64_t i = 0; i < n; ++i) {
        Item it;
        Bytes value;
        if (!u.str(it.key) || !u.bytes(value) || !u.i64(it.version)) return malformed("scan");
        it.value.assign(value.begin(), value.end());
        out.push_back(std::move(it));
    }
    if (!u.done()) return malformed("scan");
    return out;
}

Result<Watched> DrdClient::watch(const std::string &prefix, std::int64_t after, std::int64_t wait_ms) {
    Packer p;
    p.str(prefix).i64(after).i64(wait_ms);
    auto r = call("watch", p.view());
    if (!r) return r.error();
    Unpacker u(*r);
    Watched w;
    std::int64_t n = 0;
    if (!u.i64(w.next_index) || !u.i64(n) || n < 0) return malformed("watch");
    for (std::int64_t i = 0; i < n; ++i) {
        Item it;
        Bytes value;
        if (!u.i64(it.index) || !u.str(it.key) || !u.bytes(value) || !u.i64(it.version) || !u.boolean(it.deleted))
            return malformed("watch");
        it.value.assign(value.begin(), value.end());
        w.changes.push_back(std::move(it));
    }
    if (!u.done()) return malformed("watch");
    return w;
}

Result<Status> DrdClient::status() {
    auto r = call("status", {});
    if (!r) return r.error();
    Unpacker u(*r);
    Status s;
    std::int64_t n = 0;
    if (!u.str(s.leader) || !u.i64(n) || n < 0) return malformed("status");
    for (std::int64_t i = 0; i < n; ++i) {
        std::string id;
        if (!u.str(id)) return malformed("status");
        s.voters.push_back(id);
    }
    if (!u.i64(n) || n < 0) return malformed("status");
    for (std::int64_t i = 0; i < n; ++i) {
        std::string id;
        if (!u.str(id)) return malformed("status");
        s.standbys.push_back(id);
    }
    if (!u.i64(s.commit_index) || !u.done()) return malformed("status");
    return s;
}

}  // namespace harness::drd::test
