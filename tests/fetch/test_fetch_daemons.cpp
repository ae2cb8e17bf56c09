// The daemon's fetch path end to end: three hcored with empty lib/ fetch a published
// plugin on first load and run it; a restarted daemon loads it from its cache
// until the TTL passes; a refused package reaches the caller with its reason.
// Real hcored (tests/support), real nginx and GnuPG (support/fetch_fixture).
#include "support/fetch_fixture.hpp"

#include <daemon_fixture.hpp>
#include <harness/hlib/hlib.hpp>
#include <harness/publish/publish_push.hpp>

#include <doctest/doctest.h>

#include <thread>

using namespace fetchtest;
using namespace std::chrono_literals;
namespace ht = harness::test;

namespace {

const harness::ComponentName alpha{"fetchtest", "alpha"};

struct Cluster {
    explicit Cluster(FetchWorld &world) : w(world) {
        key = ht::write_vm_key(w.tmp.path() / "vm.key");
        public_key = w.tmp.path() / "publisher.asc";
        write_text(public_key, read_text_or_export());
    }

    std::string read_text_or_export() {
        auto k = harness::repo::export_public_key(w.publisher.path(), w.signer);
        REQUIRE(k.ok());
        return *k;
    }

    // with_repo = false: the daemon knows no repository; it trusts the
    // publisher and learns locations only from what hpublish pushes.
    std::unique_ptr<ht::Daemon> start(const fs::path &root, bool with_repo = true, std::vector<std::string> more = {}) {
        ht::DaemonOptions o;
        o.root = root;
        o.vm = "fetch";
        o.key_file = key;
        o.install_examples = false;  // empty lib/: everything comes over HTTP
        o.extra_args = {"--trust", w.signer, "--import-key", public_key.string()};
        if (with_repo) o.extra_args.insert(o.extra_args.end(), {"--repo", w.nginx.url()});
        o.extra_args.insert(o.extra_args.end(), more.begin(), more.end());
        return ht::Daemon::start(o);
    }

    harness::hlib::Daemon client(const ht::Daemon &d) {
        auto vm_key = harness::load_key(key);
        REQUIRE(vm_key.ok());
        auto c = harness::hlib::Connection::open_unix(d.unix_socket(), *vm_key, harness::hlib::deadline_in(5s));
        REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().describe()));
        return harness::hlib::Daemon(std::move(*c));
    }

    // Loads alpha on d and calls answer(); returns the result or the error.
    harness::Result<std::int64_t> load_and_call(const ht::Daemon &d) {
        auto hd = client(d);
        auto version = hd.load(alpha, harness::hlib::deadline_in(20s));
        if (!version) return version.error();
        auto reply =
            hd.call(alpha, "answer", {}, HARNESS_CALL_AUTO, HARNESS_MODE_DEFAULT, harness::hlib::deadline_in(10s));
        if (!reply) return reply.error();
        harness_reader r = harness_reader_make(reply->data(), reply->size());
        std::int64_t v = 0;
        if (harness_unpack_i64(&r, &v) != 0) return harness::make_error(HARNESS_ERR_PROTOCOL, "bad reply");
        return v;
    }

    FetchWorld &w;
    fs::path key;
    fs::path public_key;
};

std::size_t settled_requests(const Nginx &nginx, const std::string &needle, std::size_t at_least) {
    for (int i = 0; i < 200 && nginx.requests(needle) < at_least; ++i) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(100ms);
    return nginx.requests(needle);
}

}  // namespace

TEST_CASE("three daemons with empty lib/ fetch the plugin on first load, then use their caches until the TTL") {
    FetchWorld w;
    auto options = w.default_options();
    // Long enough for three daemons to start and load under the sanitizers
    // before the first one's copy expires.
    options.ttl = std::chrono::seconds(8);
    w.publish({"alpha"}, options);
    Cluster cluster(w);

    std::vector<fs::path> roots;
    for (int i = 0; i < 3; ++i) {
        roots.push_back(w.tmp.path() / ("daemon" + std::to_string(i)));
        fs::create_directories(roots.back());
        fs::permissions(roots.back(), fs::perms::owner_all);
    }
    std::chrono::steady_clock::time_point first_fetch{};
    {
        std::vector<std::unique_ptr<ht::Daemon>> daemons;
        for (const auto &r : roots) daemons.push_back(cluster.start(r));
        for (auto &d : daemons) {
            if (d == daemons.front()) first_fetch = std::chrono::steady_clock::now();
            auto v = cluster.load_and_call(*d);
            REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().describe() + "\n" + d->stderr_tail()));
            CHECK(*v == 42);
            CHECK(fs::exists(d->root() / "cache" / "lib" / "fetchtest" / "alpha.so"));
            CHECK(d->stderr_text().find("fetched fetchtest/alpha") != std::string::npos);
        }
    }
    CHECK(settled_requests(w.nginx, "alpha-1.0.0.so", 3) == 3);

    // A restarted daemon finds the plugin in its cache: no new download.
    {
        auto d = cluster.start(roots[0]);
        auto v = cluster.load_and_call(*d);
        REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().describe()));
        CHECK(*v == 42);
    }
    CHECK(settled_requests(w.nginx, "alpha-1.0.0.so", 3) == 3);

    // Once the TTL has passed (counted from before the first daemon's fetch)
    // it is fetched again.
    std::this_thread::sleep_until(first_fetch + *options.ttl + 100ms);
    {
        auto d = cluster.start(roots[0]);
        auto v = cluster.load_and_call(*d);
        REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().describe()));
    }
    CHECK(settled_requests(w.nginx, "alpha-1.0.0.so", 4) == 4);
    // The daemons' GnuPG homes only verified: no gpg-agent left behind.
    for (const auto &r : roots) CHECK_FALSE(GpgHome(r / "gnupg").agent_running());
}

TEST_CASE("a daemon refuses a tampered package and tells the caller why") {
    FetchWorld w;
    w.publish({"alpha"});
    auto so = w.www() / "packages" / "fetchtest" / "alpha-1.0.0.so";
    auto bytes = read_text(so);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 1);
    write_text(so, bytes);
    Cluster cluster(w);
    fs::path root = w.tmp.path() / "daemon";
    fs::create_directories(root);
    auto d = cluster.start(root);
    auto v = cluster.load_and_call(*d);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().message.find("hash mismatch") != std::string::npos);
    CHECK(d->stderr_text().find("hash mismatch") != std::string::npos);
    CHECK_FALSE(fs::exists(root / "cache" / "lib" / "fetchtest" / "alpha.so"));
}

TEST_CASE("hpublish's push tells every member where to fetch: daemons without --repo fetch the plugin") {
    FetchWorld w;
    w.publish({"alpha"});
    Cluster cluster(w);
    auto first = cluster.start(w.tmp.path() / "d1", false);
    auto second = cluster.start(w.tmp.path() / "d2", false, {"--join", first->tcp().to_string()});

    // Before the push nobody knows a repository for alpha.
    auto before = cluster.load_and_call(*second);
    REQUIRE_FALSE(before.ok());
    CHECK(before.error().status == HARNESS_ERR_NOT_FOUND);

    auto index = harness::repo::parse_index(read_text(w.www() / "index.json"));
    REQUIRE(index.ok());
    const auto *entry = index->find(alpha);
    REQUIRE(entry != nullptr);
    harness::hlib::ConnectOptions vm;
    vm.hcore = first->tcp();
    vm.key_file = cluster.key;
    auto pushed = harness::publish::push_to_vm(vm, w.nginx.url(), {*entry});
    REQUIRE_MESSAGE(pushed.ok(), (pushed.ok() ? "" : pushed.error().describe()));

    // The push returned after the first daemon forwarded it: the second one,
    // which was never told directly, lists it and fetches from it.
    auto published = cluster.client(*second).connection().request(harness::protocol::Type::published, {},
                                                                  harness::hlib::deadline_in(5s));
    REQUIRE(published.ok());
    harness::Unpacker u(*published);
    std::uint64_t n = 0;
    std::string url, package, component;
    REQUIRE(u.u64(n));
    CHECK(n == 1);
    REQUIRE((u.str(url) && u.str(package) && u.str(component)));
    CHECK(url == w.nginx.url());
    CHECK(package + "/" + component == "fetchtest/alpha");

    for (auto *d : {first.get(), second.get()}) {
        auto v = cluster.load_and_call(*d);
        REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().describe() + "\n" + d->stderr_tail()));
        CHECK(*v == 42);
        CHECK(d->stderr_text().find("fetched fetchtest/alpha") != std::string::npos);
    }
}

TEST_CASE("a pushed location does not bypass trust: an untrusted publisher's plugin is refused") {
    FetchWorld w;
    w.publish({"alpha"});
    Cluster cluster(w);
    // This daemon trusts some other key only.
    ht::DaemonOptions o;
    o.root = w.tmp.path() / "d";
    o.vm = "fetch";
    o.key_file = cluster.key;
    o.install_examples = false;
    o.extra_args = {"--trust", std::string(40, 'A')};
    auto d = ht::Daemon::start(o);
    auto index = harness::repo::parse_index(read_text(w.www() / "index.json"));
    REQUIRE(index.ok());
    harness::hlib::ConnectOptions vm;
    vm.hcore = d->tcp();
    vm.key_file = cluster.key;
    REQUIRE(harness::publish::push_to_vm(vm, w.nginx.url(), {*index->find(alpha)}).ok());
    auto v = cluster.load_and_call(*d);
    REQUIRE_FALSE(v.ok());
    CHECK(v.error().message.find("unknown key") != std::string::npos);
    CHECK_FALSE(fs::exists(o.root / "cache" / "lib" / "fetchtest" / "alpha.so"));
}
