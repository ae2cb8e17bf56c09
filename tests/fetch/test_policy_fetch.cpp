// Recovery-policy components fetched for the launcher: a policy names
// detector/process (and so protocol/restart); the launcher's root has an
// empty lib/, so Policy::from_text asks the daemon its ConnectOptions name
// (by TCP, with an explicit key file — the launcher's --hcore and --key),
// which fetches the signed packages from a real nginx and verifies them
// with GnuPG. A package tampered with after signing, or an index whose
// signature no longer matches, is refused, and the policy with it, in one
// line naming the component and the daemon's reason.
#include "support/fetch_fixture.hpp"
#include "support/trusting_daemon.hpp"

#include <daemon_fixture.hpp>
#include <harness/policy/chain.hpp>

#include <doctest/doctest.h>

using namespace fetchtest;
namespace ht = harness::test;
namespace hl = harness::hlib;

namespace {

const std::string kPolicy = R"({"detectors": [{"component": "process"}]})";

// Publishes detector/process and protocol/restart from the build's plugins root.
void publish_policy_components(FetchWorld &w) {
    const fs::path lib = fs::path(POLICY_PLUGINS_ROOT) / "lib";
    std::vector<harness::publish::PluginFiles> files = {
        {lib / "detector" / "process.so", lib / "detector" / "process.json"},
        {lib / "protocol" / "restart.so", lib / "protocol" / "restart.json"},
    };
    auto index = harness::publish::publish(w.default_options(), files);
    REQUIRE_MESSAGE(index.ok(), (index.ok() ? "" : index.error().describe()));
    make_world_readable(w.www());
}

void flip_a_byte(const fs::path &file) {
    auto bytes = read_text(file);
    REQUIRE(bytes.size() > 2);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 1);
    write_text(file, bytes);
}

// One hcored trusting the world's publisher; the launcher reaches it by TCP
// from a root of its own (empty lib/, no socket), with the daemon's key file.
struct Host {
    explicit Host(FetchWorld &w) : root(w.tmp.path() / "host"), daemon(start_trusting_daemon(w, root, "policy")) {
        launcher_root = w.tmp.path() / "launcher";
        fs::create_directories(launcher_root / "lib");
    }

    hl::ConnectOptions connect() const {
        hl::ConnectOptions c;
        c.root = launcher_root;
        c.hcore = daemon->tcp();
        c.key_file = root / "vm.key";
        return c.resolved();
    }

    fs::path root, launcher_root;
    std::unique_ptr<ht::Daemon> daemon;
};

}  // namespace

TEST_CASE("a policy's components come signed through the daemon the connect options name") {
    FetchWorld w;
    publish_policy_components(w);
    Host host(w);
    auto policy = harness::policy::Policy::from_text(kPolicy, "policy.json", host.connect());
    REQUIRE_MESSAGE(policy.ok(), (policy.ok() ? "" : policy.error().describe() + "\n" + host.daemon->stderr_tail()));
    harness::policy::Fault f;
    f.rank = 1;
    f.host = 0;
    CHECK((*policy)->decide(f).protocol == "RESTART");
    CHECK(host.daemon->stderr_text().find("resolved detector/process 1.0.0 for a process") != std::string::npos);
    CHECK(host.daemon->stderr_text().find("resolved protocol/restart 1.0.0 for a process") != std::string::npos);
}

TEST_CASE("a policy plugin tampered with after signing is refused, and the policy with it") {
    FetchWorld w;
    publish_policy_components(w);
    flip_a_byte(w.www() / "packages" / "detector" / "process-1.0.0.so");
    Host host(w);
    auto policy = harness::policy::Policy::from_text(kPolicy, "policy.json", host.connect());
    REQUIRE_FALSE(policy.ok());
    const std::string &message = policy.error().message;
    CAPTURE(message);
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.rfind("policy.json: detector 'process': cannot load it (detector/process: ", 0) == 0);
    // The package's bytes no longer match the hash its signed index vouches for.
    CHECK(message.find("refused to provide it: hash mismatch") != std::string::npos);
}

TEST_CASE("a repository index tampered with after signing fails its signature check, and the policy with it") {
    FetchWorld w;
    publish_policy_components(w);
    auto index = read_text(w.www() / "index.json");
    auto at = index.find("\"process\"");
    REQUIRE(at != std::string::npos);
    index.replace(at, 9, "\"pr0cess\"");
    write_text(w.www() / "index.json", index);
    Host host(w);
    auto policy = harness::policy::Policy::from_text(kPolicy, "policy.json", host.connect());
    REQUIRE_FALSE(policy.ok());
    const std::string &message = policy.error().message;
    CAPTURE(message);
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.rfind("policy.json: detector 'process': ", 0) == 0);
    CHECK(message.find("bad signature") != std::string::npos);
}
