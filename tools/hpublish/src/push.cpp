#include <harness/publish/publish_push.hpp>

#include <nlohmann/json.hpp>

namespace harness::publish {

namespace {}  // namespace

std::string entry_info_json(const repo::IndexEntry &entry) {
    nlohmann::json j;
    j["level"] = entry.level;
    j["abi_major"] = entry.abi_major;
    j["abi_minor"] = entry.abi_minor;
    j["arch"] = entry.arch;
    j["cache_ttl_seconds"] = entry.cache_ttl_seconds;
    j["functions"] = nlohmann::json::array();
    for (const auto &f : entry.functions)
        j["functions"].push_back({{"name", f.name},
                                  {"convention", convention_name(f.convention)},
                                  {"default_mode", mode_name(f.default_mode)},
                                  {"signature", f.signature}});
    return j.dump();
}

Result<void> push_to_vm(const hlib::ConnectOptions &vm, const std::string &repo_url,
                        const std::vector<repo::IndexEntry> &entries) {
    auto options = vm.resolved();
    auto key = load_key(options.key_file);
    if (!key) return key.error();
    auto deadline = hlib::deadline_in(options.timeout);
    auto conn = options.hcore ? hlib::Connection::open_tcp(*options.hcore, *key, deadline)
                              : hlib::Connection::open_unix(options.root / "var" / "hcored.sock", *key, deadline);
    if (!conn) return conn.error();
    Packer p;
    p.str(repo_url).boolean(false).u64(entries.size());
    for (const auto &e : entries) p.str(e.package).str(e.component).str(e.version).str(entry_info_json(e));
    auto reply = conn->request(protocol::Type::publish, p.view(), deadline);
    if (!reply) return reply.error();
    return {};
}

}  // namespace harness::publish
