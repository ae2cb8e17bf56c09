#include "published_records.hpp"

#include <harness/common/pack.hpp>

#include <algorithm>
#include <chrono>

namespace harness::hcore {

namespace {

const std::string kPrefix = "vm/plugins/";

// A call to this daemon's vm/drd; the reply, or the DRD's error.
Result<Bytes> drd_call(const harness_host_api *host, const char *function, const Packer &args) {
    harness_buf out{};
    char err[256] = {};
    int rc = host->call_local(host->host, "vm", "drd", function, args.view().data(), args.view().size(), &out, err,
                              sizeof err);
    Bytes reply(out.data, out.data + out.len);
    harness_buf_free(&out);
    if (rc != HARNESS_OK)
        return make_error(static_cast<harness_status>(rc), std::string("vm/drd ") + function + ": " + err);
    return reply;
}

struct Stored {
    PublishedPlugin entry;
    std::int64_t published_ms = 0;
};

}  // namespace

std::vector<PublishedPlugin> read_published_records(const harness_host_api *host) {
    if (!HARNESS_HOST_HAS(host, call_local)) return {};
    Packer args;
    args.str(kPrefix).boolean(false);
    auto reply = drd_call(host, "scan", args);
    if (!reply) return {};
    Unpacker u(*reply);
    std::int64_t n = 0;
    if (!u.i64(n) || n < 0) return {};
    std::vector<Stored> stored;
    for (std::int64_t i = 0; i < n; ++i) {
        std::string key;
        Bytes value;
        std::int64_t version = 0;
        if (!u.str(key) || !u.bytes(value) || !u.i64(version)) return {};
        Unpacker v(value);
        Stored s;
        // A record that does not parse is skipped, never trusted in part.
        if (v.str(s.entry.repo_url) && v.str(s.entry.name.package) && v.str(s.entry.name.component) &&
            v.str(s.entry.version) && v.str(s.entry.info_json) && v.i64(s.published_ms) && v.done())
            stored.push_back(std::move(s));
    }
    std::stable_sort(stored.begin(), stored.end(),
                     [](const Stored &a, const Stored &b) { return a.published_ms > b.published_ms; });
    std::vector<PublishedPlugin> out;
    for (auto &s : stored) out.push_back(std::move(s.entry));
    return out;
}

Result<void> write_published_records(const harness_host_api *host, const std::vector<PublishedPlugin> &entries) {
    if (!HARNESS_HOST_HAS(host, call_local)) return {};
    const std::int64_t now_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    for (const auto &e : entries) {
        Packer value;
        value.str(e.repo_url).str(e.name.package).str(e.name.component).str(e.version).str(e.info_json).i64(now_ms);
        Packer args;
        args.str(kPrefix + e.name.package + "/" + e.name.component + "/" + e.repo_url)
            .bytes(value.view())
            .str("voters");
        if (auto r = drd_call(host, "put", args); !r) return r.error();
    }
    return {};
}

}  // namespace harness::hcore
