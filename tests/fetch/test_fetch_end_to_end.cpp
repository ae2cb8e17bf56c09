// End to end: publish, fetch through the Resolver, load and call; the cache
// serves later resolves until the TTL passes; concurrent callers share one
// download.
#include "support/fetch_fixture.hpp"

#include <harness/common/loader.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

using namespace fetchtest;

namespace {

const harness::ComponentName alpha{"fetchtest", "alpha"};

std::shared_ptr<harness::Fetcher> make_fetcher(FetchWorld &w) {
    auto f = harness::make_http_fetcher(w.config());
    REQUIRE(f.ok());
    return *f;
}

// nginx writes its access log line after the response went out; wait for it.
std::size_t settled_requests(const Nginx &nginx, const std::string &needle, std::size_t at_least) {
    for (int i = 0; i < 200 && nginx.requests(needle) < at_least; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return nginx.requests(needle);
}

std::int64_t call_answer(const harness::ResolvedPlugin &where) {
    auto lib = harness::LoadedLibrary::open(where);
    REQUIRE_MESSAGE(lib.ok(), (lib.ok() ? "" : lib.error().describe()));
    const harness_function *fn = (*lib)->find_function("answer");
    REQUIRE(fn != nullptr);
    harness_value result{};
    REQUIRE(fn->automatic(nullptr, nullptr, 0, &result) == HARNESS_OK);
    return result.v.i64;
}

}  // namespace

TEST_CASE("a plugin missing from lib/ is fetched, verified, cached and loads") {
    FetchWorld w;
    w.publish({"alpha", "beta"});
    harness::Resolver resolver(w.root(), make_fetcher(w));

    auto first = resolver.resolve(alpha);
    REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error().describe()));
    CHECK(first->origin == harness::PluginOrigin::fetched);
    CHECK(first->shared_object == w.cache_lib() / "fetchtest" / "alpha.so");
    CHECK(read_text(first->shared_object) == read_text(plugin_dir() / "fetchtest" / "alpha.so"));
    CHECK(call_answer(*first) == 42);

    auto second = resolver.resolve(alpha);
    REQUIRE(second.ok());
    CHECK(second->origin == harness::PluginOrigin::cache);
    CHECK(settled_requests(w.nginx, "alpha-1.0.0.so", 1) == 1);

    // The cache directories are private to the daemon's user.
    auto perms = fs::status(w.cache_lib() / "fetchtest").permissions();
    CHECK((perms & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none);
    // Verifying needs no gpg-agent, and the daemon must not leave one behind.
    CHECK_FALSE(w.daemon_gpg.agent_running());
    CHECK(w.publisher.agent_running());  // the check itself works: signing needed one
}

TEST_CASE("the cache serves resolves until the TTL passes, then the plugin is fetched again") {
    FetchWorld w;
    auto options = w.default_options();
    options.ttl = std::chrono::seconds(2);
    w.publish({"alpha"}, options);
    harness::Resolver resolver(w.root(), make_fetcher(w));

    auto first = resolver.resolve(alpha);
    REQUIRE(first.ok());
    CHECK(first->origin == harness::PluginOrigin::fetched);
    auto cached = resolver.resolve(alpha);
    REQUIRE(cached.ok());
    CHECK(cached->origin == harness::PluginOrigin::cache);

    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    auto again = resolver.resolve(alpha);
    REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().describe()));
    CHECK(again->origin == harness::PluginOrigin::fetched);  // same index version again is fine
    CHECK(settled_requests(w.nginx, "alpha-1.0.0.so", 2) == 2);
    CHECK(call_answer(*again) == 42);
}

TEST_CASE("many concurrent callers for one component cause one download") {
    FetchWorld w;
    w.publish({"alpha"});
    auto fetcher = make_fetcher(w);
    constexpr int callers = 8;
    std::atomic<int> ready{0}, ok{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < callers; ++i)
        threads.emplace_back([&] {
            ++ready;
            while (ready.load() < callers) std::this_thread::yield();
            auto r = fetcher->fetch(alpha, w.cache_lib());
            if (r.ok()) ++ok;
        });
    for (auto &t : threads) t.join();
    CHECK(ok.load() == callers);
    CHECK(settled_requests(w.nginx, "alpha-1.0.0.so", 1) == 1);
    CHECK(w.nginx.requests("GET /index.json ") == 1);
}

TEST_CASE("a repository that does not carry the component is skipped for the next one") {
    FetchWorld w;
    w.publish({"alpha"});
    auto config = w.config();
    // First an unreachable repository, then the real one.
    config.repositories.insert(config.repositories.begin(), "http://127.0.0.1:1/");
    auto fetcher = harness::make_http_fetcher(config);
    REQUIRE(fetcher.ok());
    auto r = (*fetcher)->fetch(alpha, w.cache_lib());
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().describe()));
    CHECK(r->origin == harness::PluginOrigin::fetched);
}
