#include "vm_service_kit/drd_record_store.hpp"

#include <algorithm>
#include <cstddef>

namespace harness::vmsvc {

namespace {
Error malformed(const char *function) {
    return make_error(HARNESS_ERR_PROTOCOL, std::string("vm/drd ") + function + ": malformed reply");
}
}  // namespace

bool DrdRecordStore::host_supports(const harness_host_api *host) {
    return HARNESS_HOST_HAS(host, call_local);
}

Result<Bytes> DrdRecordStore::call(const char *function, const Packer &args) {
    if (!host_supports(host_)) return make_error(HARNESS_ERR_NOT_SUPPORTED, "the host offers no call_local (ABI 1.1)");
    if (args.failed()) return make_error(HARNESS_ERR_INTERNAL, "out of memory packing a DRD request");
    harness_buf out{};
    char err[512] = {0};
    auto view = args.view();
    int status = host_->call_local(host_->host, "vm", "drd", function, view.data(), view.size(), &out, err, sizeof err);
    Bytes reply(out.data, out.data + out.len);
    harness_buf_free(&out);
    if (status != HARNESS_OK)
        return make_error(status,
                          std::string("vm/drd ") + function + ": " + (err[0] ? err : harness_status_string(status)));
    return reply;
}

Result<std::optional<StoredRecord>> DrdRecordStore::get(const std::string &key, bool linearizable) {
    Packer args;
    args.str(key).boolean(linearizable);
    auto reply = call("get", args);
    if (!reply) return reply.error();
    Unpacker u(*reply);
    bool found = false;
    StoredRecord r;
    r.key = key;
    if (!u.boolean(found) || !u.bytes(r.value) || !u.i64(r.version)) return malformed("get");
    if (!found) return std::optional<StoredRecord>{};
    return std::optional<StoredRecord>{std::move(r)};
}

Result<CasOutcome> DrdRecordStore::cas(const std::string &key, std::int64_t expected_version,
                                       std::span<const std::uint8_t> value) {
    Packer args;
    args.str(key).i64(expected_version).bytes(value).str("voters");
    auto reply = call("cas", args);
    if (!reply) return reply.error();
    Unpacker u(*reply);
    CasOutcome c;
    if (!u.boolean(c.ok) || !u.i64(c.current_version)) return malformed("cas");
    return c;
}

Result<bool> DrdRecordStore::del(const std::string &key) {
    Packer args;
    args.str(key);
    auto reply = call("del", args);
    if (!reply) return reply.error();
    Unpacker u(*reply);
    bool existed = false;
    if (!u.boolean(existed)) return malformed("del");
    return existed;
}

Result<std::vector<StoredRecord>> DrdRecordStore::scan(const std::string &prefix, bool linearizable) {
    Packer args;
    args.str(prefix).boolean(linearizable);
    auto reply = call("scan", args);
    if (!reply) return reply.error();
    Unpacker u(*reply);
    std::int64_t n = 0;
    if (!u.i64(n) || n < 0) return malformed("scan");
    std::vector<StoredRecord> out;
    for (std::int64_t i = 0; i < n; ++i) {
        StoredRecord r;
        if (!u.str(r.key) || !u.bytes(r.value) || !u.i64(r.version)) return malformed("scan");
        if (r.key.starts_with(prefix)) out.push_back(std::move(r));
    }
    // The contract does not promise an order; ours is key order.
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.key < b.key; });
    return out;
}

}  // namespace harness::vmsvc
