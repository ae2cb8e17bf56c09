// Where an in-process component comes from: <root>/lib, then a valid
// <root>/cache entry, then the local daemon, which fetches and verifies it
// (RESOLVE) under its own trust policy. The process never fetches by itself:
// the daemon holds the repositories, the publisher keys and the policy.
#include "direct_host.hpp"

#include <harness/hlib/hlib.hpp>

namespace harness::hlib::detail {

namespace {

Result<Connection> open_local_daemon(const ConnectOptions &o, const VmKey &key, Deadline deadline) {
    if (o.hcore) return Connection::open_tcp(*o.hcore, key, deadline);
    return Connection::open_unix(o.root / "var" / "hcored.sock", key, deadline);
}

}  // namespace

Result<ResolvedPlugin> resolve_in_process(const std::filesystem::path &root, const ComponentName &name,
                                          const DirectLoadOptions &options) {
    Resolver local(root);  // no fetcher: lib/ and cache/ only
    auto found = local.resolve(name);
    if (found || found.error().status != HARNESS_ERR_NOT_FOUND || !options.ask_daemon) return found;

    ConnectOptions connect = options.daemon.value_or(ConnectOptions{});
    if (connect.root.empty()) connect.root = root;
    connect = connect.resolved();
    auto deadline = deadline_in(options.daemon_timeout);
    // No daemon to ask is still "not found": say where we looked and why the
    // daemon could not be asked.
    auto not_found = [&](const Error &why) {
        return make_error(HARNESS_ERR_NOT_FOUND,
                          found.error().message + "; no local daemon to fetch it (" + why.describe() + ")");
    };
    auto key = load_key(connect.key_file);
    if (!key) return not_found(key.error());
    auto conn = open_local_daemon(connect, *key, deadline);
    if (!conn) return not_found(conn.error());
    std::string member = conn->peer_id();
    Daemon daemon(std::move(*conn));
    auto resolved = daemon.resolve(name, deadline);
    if (!resolved)
        return make_error(resolved.error().status,
                          name.to_string() + " is not in " + (root / "lib").string() +
                              " or the cache, and the local daemon (member " + member +
                              ") refused to provide it: " + resolved.error().message);
    return resolved->where;
}

}  // namespace harness::hlib::detail
