// Application-level plugins fetched for a process: a process whose root has
// an empty lib/ and cache asks its local daemon (RESOLVE), which fetches the
// signed package from a real nginx, verifies it with GnuPG under its own
// trust policy, writes it to its cache without loading it, and the process
// loads it from there and calls into its typed interface. Tampered and
// unsigned packages are refused with the daemon's reason and leave nothing
// in the cache; a daemon-level plugin is refused to a process.
#include "plugin/fetchtest_answer.h"
#include "support/fetch_fixture.hpp"
#include "support/trusting_daemon.hpp"

#include <daemon_fixture.hpp>
#include <harness/hlib/hlib.hpp>

#include <doctest/doctest.h>

using namespace fetchtest;
using namespace std::chrono_literals;
namespace ht = harness::test;
namespace hl = harness::hlib;

namespace {

const harness::ComponentName ops{"fetchtest", "ops"};

// One hcored whose root is also the process's root (as on a host where the
// ranks share HARNESS_ROOT): empty lib/, the VM key at <root>/vm.key, so
// DirectPlugin reaches it through <root>/var/hcored.sock.
struct Host {
    Host(FetchWorld &w, std::vector<std::string> more_args = {})
        : root(w.tmp.path() / "host"), daemon(start_trusting_daemon(w, root, "direct", std::move(more_args))) {}

    harness::Result<std::unique_ptr<hl::DirectPlugin>> load(const harness::ComponentName &name) const {
        hl::DirectLoadOptions options;
        options.daemon_timeout = 20s;
        return hl::DirectPlugin::load(root, name, options);
    }

    bool cache_has_files() const {
        std::error_code ec;
        if (!fs::exists(root / "cache" / "lib", ec)) return false;
        for (const auto &e : fs::recursive_directory_iterator(root / "cache" / "lib"))
            if (!e.is_directory()) return true;
        return false;
    }

    // What the daemon has loaded into itself (RESOLVE must not load).
    std::size_t daemon_loaded() const {
        auto key = harness::load_key(root / "vm.key");
        REQUIRE(key.ok());
        auto c = hl::Connection::open_unix(daemon->unix_socket(), *key, hl::deadline_in(5s));
        REQUIRE(c.ok());
        auto loaded = hl::Daemon(std::move(*c)).loaded(hl::deadline_in(5s));
        REQUIRE(loaded.ok());
        return loaded->size();
    }

    fs::path root;
    std::unique_ptr<ht::Daemon> daemon;
};

}  // namespace

TEST_CASE("a process with empty lib/ and cache gets a signed plugin through its daemon and calls its ops table") {
    FetchWorld w;
    w.publish({"ops"});
    Host host(w);
    REQUIRE_FALSE(host.cache_has_files());
    std::size_t loaded_before = host.daemon_loaded();

    auto plugin = host.load(ops);
    REQUIRE_MESSAGE(plugin.ok(), (plugin.ok() ? "" : plugin.error().describe() + "\n" + host.daemon->stderr_tail()));
    CHECK((*plugin)->location().shared_object == host.root / "cache" / "lib" / "fetchtest" / "ops.so");
    auto answer = (*plugin)->interface_as<fetchtest_answer_ops>("fetchtest.answer", 1);
    REQUIRE_MESSAGE(answer.ok(), (answer.ok() ? "" : answer.error().describe()));
    REQUIRE((*answer)->struct_size >= sizeof(fetchtest_answer_ops));
    CHECK((*answer)->answer() == 42);
    auto newer = (*plugin)->interface("fetchtest.answer", 2);
    REQUIRE_FALSE(newer.ok());
    CHECK(newer.error().message.find("fetchtest/ops 1.0.0 has no interface fetchtest.answer v2") != std::string::npos);

    CHECK(host.daemon->stderr_text().find("fetched fetchtest/ops") != std::string::npos);
    CHECK(host.daemon->stderr_text().find("resolved fetchtest/ops 1.0.0 for a process") != std::string::npos);
    CHECK(host.daemon_loaded() == loaded_before);  // fetched for the process, not loaded by the daemon
    CHECK(w.nginx.requests("ops-1.0.0.so") == 1);

    // The cache entry now serves the next load without the daemon.
    host.daemon.reset();
    auto again = host.load(ops);
    REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().describe()));
    CHECK((*again)->location().origin == harness::PluginOrigin::cache);
}

TEST_CASE("a tampered package is refused by the daemon with its reason, and nothing reaches the cache") {
    FetchWorld w;
    w.publish({"ops"});
    auto so = w.www() / "packages" / "fetchtest" / "ops-1.0.0.so";
    auto bytes = read_text(so);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 1);
    write_text(so, bytes);
    Host host(w);

    auto plugin = host.load(ops);
    REQUIRE_FALSE(plugin.ok());
    CAPTURE(plugin.error().message);
    CHECK(plugin.error().message.find("fetchtest/ops is not in") != std::string::npos);
    CHECK(plugin.error().message.find("the local daemon (member ") != std::string::npos);
    CHECK(plugin.error().message.find("refused to provide it: hash mismatch") != std::string::npos);
    CHECK(host.daemon->stderr_text().find("hash mismatch") != std::string::npos);
    CHECK_FALSE(host.cache_has_files());
}

TEST_CASE("an unsigned repository is refused unless the daemon was started with --allow-unsigned") {
    FetchWorld w;
    w.publish({"ops"});
    fs::remove(w.www() / "index.json.sig");
    {
        Host host(w);
        auto plugin = host.load(ops);
        REQUIRE_FALSE(plugin.ok());
        CAPTURE(plugin.error().message);
        CHECK(plugin.error().message.find("refused to provide it: missing signature") != std::string::npos);
        CHECK_FALSE(host.cache_has_files());
    }
    fs::remove_all(w.tmp.path() / "host");
    Host lenient(w, {"--allow-unsigned"});
    auto plugin = lenient.load(ops);
    REQUIRE_MESSAGE(plugin.ok(), (plugin.ok() ? "" : plugin.error().describe()));
    auto answer = (*plugin)->interface_as<fetchtest_answer_ops>("fetchtest.answer", 1);
    REQUIRE(answer.ok());
    CHECK((*answer)->answer() == 42);
}

TEST_CASE("a daemon-level plugin is refused to a process, and a missing one is NOT_FOUND") {
    FetchWorld w;
    w.publish({"alpha"});
    Host host(w);
    auto alpha = host.load({"fetchtest", "alpha"});
    REQUIRE_FALSE(alpha.ok());
    CHECK(alpha.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK(alpha.error().message.find("fetchtest/alpha is a daemon-level plugin") != std::string::npos);

    auto missing = host.load({"fetchtest", "nosuch"});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().status == HARNESS_ERR_NOT_FOUND);
    CHECK(missing.error().message.find("not in index") != std::string::npos);
}
