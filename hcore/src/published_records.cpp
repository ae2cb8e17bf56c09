#include "published_records.hpp"

#include "local_drd.hpp"

#include <harness/common/pack.hpp>

#include <algorithm>
#include <chrono>

namespace harness::hcore {

namespace {

const std::string kPrefix = "vm/plugins/";

struct Stored {
    PublishedPlugin entry;
    std::int64_t published_ms = 0;
};

}  // namespace

std::vector<PublishedPlugin> read_published_records(const harness_host_api *host) {
    Packer args;
    args.str(kPrefix).boolean(false);
    auto reply = call_local_drd(host, "scan", args);
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
        if (auto r = call_local_drd(host, "put", args); !r) return r.error();
    }
    return {};
}

}  // namespace harness::hcore
