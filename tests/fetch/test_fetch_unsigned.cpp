// --allow-unsigned: the seed paper's "pure download". No signature is
// accepted then, but a wrong signature never is.
#include "support/fetch_fixture.hpp"

#include <doctest/doctest.h>

using namespace fetchtest;

namespace {

const harness::ComponentName alpha{"fetchtest", "alpha"};

harness::Result<harness::ResolvedPlugin> fetch_unsigned(FetchWorld &w) {
    auto config = w.config();
    config.allow_unsigned = true;
    auto fetcher = harness::make_http_fetcher(config);
    REQUIRE(fetcher.ok());
    return (*fetcher)->fetch(alpha, w.cache_lib());
}

}  // namespace

TEST_CASE("allow_unsigned accepts an index without signature, still checking hashes") {
    FetchWorld w;
    w.publish({"alpha"});
    fs::remove(w.www() / "index.json.sig");
    auto r = fetch_unsigned(w);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().describe()));
    CHECK(r->origin == harness::PluginOrigin::fetched);

    fs::remove_all(w.cache_lib());
    auto so = w.www() / "packages" / "fetchtest" / "alpha-1.0.0.so";
    auto bytes = read_text(so);
    bytes[100] = static_cast<char>(bytes[100] ^ 1);
    write_text(so, bytes);
    auto tampered = fetch_unsigned(w);
    REQUIRE_FALSE(tampered.ok());
    CHECK(tampered.error().message.rfind("hash mismatch", 0) == 0);
    CHECK(w.cache_is_empty());
}

TEST_CASE("allow_unsigned still refuses a bad signature") {
    FetchWorld w;
    w.publish({"alpha"});
    write_text(w.www() / "index.json", read_text(w.www() / "index.json") + " ");
    auto r = fetch_unsigned(w);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.rfind("bad signature", 0) == 0);
    CHECK(w.cache_is_empty());
}

TEST_CASE("allow_unsigned with no index at all downloads lib/<PKG>/<COMP>.so plainly") {
    FetchWorld w;
    fs::create_directories(w.www() / "lib" / "fetchtest");
    for (const char *f : {"alpha.so", "alpha.json", "beta.so", "beta.json"})
        fs::copy_file(plugin_dir() / "fetchtest" / f, w.www() / "lib" / "fetchtest" / f);
    make_world_readable(w.www());

    auto r = fetch_unsigned(w);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().describe()));
    CHECK(read_text(r->shared_object) == read_text(plugin_dir() / "fetchtest" / "alpha.so"));

    SUBCASE("without allow_unsigned the same server is refused") {
        fs::remove_all(w.cache_lib());
        auto fetcher = harness::make_http_fetcher(w.config());
        REQUIRE(fetcher.ok());
        auto refused = (*fetcher)->fetch(alpha, w.cache_lib());
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.error().message.rfind("not found", 0) == 0);
        CHECK(w.cache_is_empty());
    }
    SUBCASE("a manifest naming another component is still mix-and-match") {
        fs::remove_all(w.cache_lib());
        fs::copy_file(w.www() / "lib" / "fetchtest" / "beta.json", w.www() / "lib" / "fetchtest" / "alpha.json",
                      fs::copy_options::overwrite_existing);
        auto mixed = fetch_unsigned(w);
        REQUIRE_FALSE(mixed.ok());
        CHECK(mixed.error().message.rfind("mix-and-match", 0) == 0);
        CHECK(w.cache_is_empty());
    }
}
