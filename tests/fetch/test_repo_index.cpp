// The index format: round trip, and malformed or hostile indexes refused.
#include <harness/fetch/repo_index.hpp>
#include <harness/fetch/repo_keys.hpp>

#include <doctest/doctest.h>

using namespace harness::repo;

namespace {

IndexEntry sample_entry() {
    IndexEntry e;
    e.package = "examples";
    e.component = "math";
    e.version = "1.0.0";
    e.abi_major = 1;
    e.arch = "x86_64";
    e.level = "daemon";
    e.cache_ttl_seconds = 60;
    e.functions.push_back({"add", HARNESS_CALL_AUTO, HARNESS_MODE_INLINE, "i64(i64,i64)"});
    e.shared_object = {"packages/examples/math-1.0.0.so", 10, std::string(64, 'a')};
    e.manifest = {"packages/examples/math-1.0.0.json", 5, std::string(64, 'b')};
    return e;
}

RepoIndex sample_index() {
    RepoIndex index;
    index.repository = "demo";
    index.index_version = 3;
    index.expires = *parse_utc("2030-01-02T03:04:05Z");
    index.upsert(sample_entry());
    return index;
}

}  // namespace

TEST_CASE("an index survives serialize and parse") {
    auto text = serialize_index(sample_index());
    auto back = parse_index(text);
    REQUIRE(back.ok());
    CHECK(back->index_version == 3);
    CHECK(format_utc(back->expires) == "2030-01-02T03:04:05Z");
    REQUIRE(back->components.size() == 1);
    const auto *e = back->find({"examples", "math"});
    REQUIRE(e);
    CHECK(e->functions.at(0).signature == "i64(i64,i64)");
    CHECK(e->functions.at(0).convention == HARNESS_CALL_AUTO);
    CHECK(e->shared_object.size == 10);
    CHECK(serialize_index(*back) == text);
}

TEST_CASE("hostile paths, bad hashes and missing fields are refused") {
    auto with = [](auto change) {
        auto index = sample_index();
        change(index.components.at(0));
        return parse_index(serialize_index(index));
    };
    CHECK_FALSE(with([](IndexEntry &e) { e.shared_object.path = "../../etc/passwd"; }).ok());
    CHECK_FALSE(with([](IndexEntry &e) { e.shared_object.path = "/etc/passwd"; }).ok());
    CHECK_FALSE(with([](IndexEntry &e) { e.manifest.path = "http://evil/x.json"; }).ok());
    CHECK_FALSE(with([](IndexEntry &e) { e.shared_object.sha256 = "abc"; }).ok());
    CHECK_FALSE(with([](IndexEntry &e) { e.package = "a/b"; }).ok());
    CHECK_FALSE(parse_index("{}").ok());
    CHECK_FALSE(parse_index("not json").ok());
    CHECK_FALSE(parse_index(R"({"format":1,"index_version":1,"expires":"tomorrow","components":[]})").ok());
    CHECK(parse_index(R"({"format":1,"index_version":1,"expires":"2030-01-01T00:00:00Z","components":[]})").ok());
}

TEST_CASE("integer fields that are floats, strings or out of range are refused") {
    auto text = serialize_index(sample_index());
    auto replaced = [&](const std::string &from, const std::string &to) {
        auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        return std::string(text).replace(at, from.size(), to);
    };
    for (auto [from, to] : std::initializer_list<std::pair<const char *, const char *>>{
             {"\"abi_major\": 1", "\"abi_major\": 3.6e49"},
             {"\"abi_major\": 1", "\"abi_major\": 4294967296"},
             {"\"abi_minor\": 0", "\"abi_minor\": 0.5"},
             {"\"cache_ttl_seconds\": 60", "\"cache_ttl_seconds\": 1e300"},
             {"\"size\": 10", "\"size\": -10"},
             {"\"size\": 10", "\"size\": 1e30"},
             {"\"index_version\": 3", "\"index_version\": \"3\""},
             {"\"format\": 1", "\"format\": 1e99"},
         }) {
        CAPTURE(to);
        auto changed = replaced(from, to);
        auto parsed = parse_index(changed);
        REQUIRE_FALSE(parsed.ok());
        CHECK(parsed.error().message.find("malformed index") != std::string::npos);
    }
}

TEST_CASE("fingerprints: only full ones, normalized") {
    CHECK(normalize_fingerprint("0123 4567 89ab cdef 0123 4567 89AB CDEF 0123 4567") ==
          "0123456789ABCDEF0123456789ABCDEF01234567");
    CHECK(normalize_fingerprint("89ABCDEF01234567").empty());  // a long key id is not enough
    CHECK(normalize_fingerprint("zz").empty());
}

TEST_CASE("ELF architecture") {
    std::string elf(64, '\0');
    elf.replace(0, 4,
                "\x7f"
                "ELF");
    elf[4] = 2;
    elf[5] = 1;
    elf[18] = 62;
    CHECK(elf_arch(elf) == "x86_64");
    CHECK(elf_arch("#!/bin/sh\n").empty());
}
