// Unit tests of the DRD's parts without consensus: entry padding, the SQLite
// state machine (versions, CAS, deletes, change index, idempotent replay,
// snapshots, local records) and the raft handshake's messages.
#include "command.hpp"
#include "raft_auth.hpp"
#include "store.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <unistd.h>

using namespace harness;
using namespace harness::drd;

namespace {

// A fresh directory under /tmp, removed afterwards (HARNESS_TEST_KEEP keeps it).
struct TempDir {
    std::filesystem::path dir;
    explicit TempDir(const char *) {
        char tmpl[] = "/tmp/drdunit-XXXXXX";
        REQUIRE(::mkdtemp(tmpl) != nullptr);
        dir = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        if (!std::getenv("HARNESS_TEST_KEEP")) std::filesystem::remove_all(dir, ec);
    }
    const std::filesystem::path &path() const { return dir; }
};

Bytes bytes_of(const std::string &s) {
    return Bytes(s.begin(), s.end());
}

std::unique_ptr<Store> open_store(const std::filesystem::path &file) {
    auto s = Store::open(file);
    REQUIRE_MESSAGE(s.ok(), (s ? "" : s.error().describe()));
    return std::move(s.value());
}

ApplyOutcome apply(Store &s, std::int64_t index, Op op, const std::string &key, const std::string &value = "",
                   std::int64_t expected = 0) {
    auto r = s.apply(index, Command{op, key, bytes_of(value), expected});
    REQUIRE_MESSAGE(r.ok(), (r ? "" : r.error().describe()));
    return *r;
}

VmKey key_of(std::uint8_t fill) {
    return VmKey{Bytes(32, fill)};
}

}  // namespace

TEST_CASE("every encoded entry is a multiple of 8 bytes and decodes to the same command") {
    for (std::size_t klen = 0; klen < 20; ++klen) {
        for (std::size_t vlen = 0; vlen < 20; ++vlen) {
            Command c{Op::cas, std::string(klen, 'k'), Bytes(vlen, 0xab), static_cast<std::int64_t>(klen * 100 + vlen)};
            Bytes e = encode_command(c);
            CHECK(e.size() % 8 == 0);
            auto d = decode_command(e);
            REQUIRE(d.ok());
            CHECK(d->op == Op::cas);
            CHECK(d->key == c.key);
            CHECK(d->value == c.value);
            CHECK(d->expected_version == c.expected_version);
        }
    }
}

TEST_CASE("malformed entries are refused, not decoded") {
    Bytes good = encode_command(Command{Op::put, "a/b", bytes_of("value"), 0});
    SUBCASE("not a multiple of 8") {
        CHECK_FALSE(decode_command(std::span(good).first(good.size() - 1)).ok());
    }
    SUBCASE("shorter than the length prefix") {
        CHECK_FALSE(decode_command(std::span(good).first(4)).ok());
    }
    SUBCASE("length prefix past the end") {
        Bytes bad = good;
        harness_put_le(bad.data(), 1000, 8);
        CHECK_FALSE(decode_command(bad).ok());
    }
    SUBCASE("length prefix that leaves more than the padding") {
        Bytes bad = good;
        bad.resize(bad.size() + 8, 0);
        CHECK_FALSE(decode_command(bad).ok());
    }
    SUBCASE("unknown op") {
        Packer p;
        p.i32(99).str("k").bytes({}).i64(0);
        CHECK_FALSE(decode_command(frame_padded(p.view())).ok());
    }
    SUBCASE("garbage body") {
        Bytes body(13, 0xee);
        CHECK_FALSE(decode_command(frame_padded(body)).ok());
    }
}

TEST_CASE("store: versions start at 1 and grow by one per write; cas and del follow the contract") {
    TempDir dir("drdunit");
    auto s = open_store(dir.path() / "drd.sqlite");
    CHECK(apply(*s, 1, Op::put, "a", "one").version == 1);
    CHECK(apply(*s, 2, Op::put, "a", "two").version == 2);
    auto r = s->get("a");
    REQUIRE(r);
    CHECK(r->version == 2);
    CHECK(r->value == bytes_of("two"));

    auto miss = apply(*s, 3, Op::cas, "a", "x", 1);
    CHECK_FALSE(miss.ok);
    CHECK(miss.current_version == 2);
    CHECK(s->get("a")->value == bytes_of("two"));
    auto hit = apply(*s, 4, Op::cas, "a", "three", 2);
    CHECK(hit.ok);
    CHECK(hit.current_version == 3);
    auto create = apply(*s, 5, Op::cas, "b", "new", 0);
    CHECK(create.ok);
    CHECK(create.current_version == 1);
    CHECK_FALSE(apply(*s, 6, Op::cas, "b", "again", 0).ok);

    CHECK(apply(*s, 7, Op::del, "b").existed);
    CHECK_FALSE(apply(*s, 8, Op::del, "b").existed);
    CHECK_FALSE(s->get("b"));
    CHECK(s->last_applied() == 8);
}

TEST_CASE("store: the change index is the log index, in commit order, per prefix") {
    TempDir dir("drdunit");
    auto s = open_store(dir.path() / "drd.sqlite");
    apply(*s, 3, Op::put, "w/a", "1");
    apply(*s, 4, Op::put, "x/other", "1");
    apply(*s, 5, Op::put, "w/b", "2");
    apply(*s, 6, Op::cas, "w/a", "no", 7);  // fails: no change
    apply(*s, 7, Op::del, "w/a");
    auto all = s->changes("w/", 0, 100);
    REQUIRE(all.size() == 3);
    CHECK(all[0].index == 3);
    CHECK(all[0].key == "w/a");
    CHECK(all[1].index == 5);
    CHECK(all[2].index == 7);
    CHECK(all[2].deleted);
    CHECK(all[2].version == 1);
    CHECK(s->changes("w/", 5, 100).size() == 1);
    CHECK(s->changes("w/", 0, 2).size() == 2);
    CHECK(s->changes("", 0, 100).size() == 4);
}

TEST_CASE("store: replaying entries already applied changes nothing (restart after a crash)") {
    TempDir dir("drdunit");
    auto file = dir.path() / "drd.sqlite";
    {
        auto s = open_store(file);
        apply(*s, 1, Op::put, "k", "v1");
        apply(*s, 2, Op::put, "k", "v2");
    }
    auto s = open_store(file);  // reopened: state survived
    CHECK(s->last_applied() == 2);
    CHECK(apply(*s, 1, Op::put, "k", "v1").skipped);
    CHECK(apply(*s, 2, Op::put, "k", "v2").skipped);
    CHECK(s->get("k")->version == 2);
    CHECK(apply(*s, 3, Op::put, "k", "v3").version == 3);
}

TEST_CASE("store: snapshot and restore carry records, changes and the applied index") {
    TempDir dir("drdunit");
    auto a = open_store(dir.path() / "a.sqlite");
    apply(*a, 1, Op::put, "p/1", "one");
    apply(*a, 2, Op::put, "p/2", std::string("\0\xff", 2));
    apply(*a, 3, Op::del, "p/1");
    auto snap = a->snapshot();
    REQUIRE(snap.ok());
    CHECK(snap->size() % 8 == 0);

    auto b = open_store(dir.path() / "b.sqlite");
    apply(*b, 1, Op::put, "stale", "x");
    REQUIRE(b->restore(*snap).ok());
    CHECK(b->last_applied() == 3);
    CHECK_FALSE(b->get("stale"));
    CHECK_FALSE(b->get("p/1"));
    REQUIRE(b->get("p/2"));
    CHECK(b->get("p/2")->value == bytes_of(std::string("\0\xff", 2)));
    CHECK(b->changes("p/", 0, 10).size() == 3);

    // A store already past the snapshot keeps its newer state.
    apply(*b, 4, Op::put, "p/3", "three");
    REQUIRE(b->restore(*snap).ok());
    CHECK(b->get("p/3"));
    CHECK(b->last_applied() == 4);

    Bytes bad = *snap;
    bad[10] ^= 0xff;
    CHECK_FALSE(b->restore(std::span(bad).first(bad.size() - 8)).ok());
}

TEST_CASE("a command's requester round-trips; entries without one (older logs) still decode") {
    Command c{Op::put, "k", bytes_of("v"), 0, "client-a", 41};
    Bytes e = encode_command(c);
    CHECK(e.size() % 8 == 0);
    auto d = decode_command(e);
    REQUIRE(d.ok());
    CHECK(d->client == "client-a");
    CHECK(d->request == 41);
    Packer legacy;
    legacy.i32(static_cast<std::int32_t>(Op::put)).str("k").bytes(bytes_of("v")).i64(0);
    auto old = decode_command(frame_padded(legacy.view()));
    REQUIRE(old.ok());
    CHECK(old->client.empty());
    Packer empty_client;
    empty_client.i32(static_cast<std::int32_t>(Op::put)).str("k").bytes({}).i64(0).str("").i64(1);
    CHECK_FALSE(decode_command(frame_padded(empty_client.view())).ok());
}

TEST_CASE("store: a repeated (client, request) answers its first outcome and writes nothing; snapshots keep them") {
    TempDir dir("drdunit");
    auto a = open_store(dir.path() / "a.sqlite");
    auto first = a->apply(1, Command{Op::cas, "k", bytes_of("one"), 0, "c", 1});
    REQUIRE(first.ok());
    CHECK(first->ok);
    CHECK_FALSE(first->repeated);
    // The same request again (a retry after a lost answer): same outcome,
    // though the cas would now fail, and no second write.
    auto again = a->apply(2, Command{Op::cas, "k", bytes_of("one"), 0, "c", 1});
    REQUIRE(again.ok());
    CHECK(again->repeated);
    CHECK(again->ok);
    CHECK(again->current_version == 1);
    CHECK(a->get("k")->version == 1);
    CHECK(a->last_applied() == 2);
    CHECK(a->changes("k", 0, 10).size() == 1);
    // Another client's request 1 is a request of its own.
    CHECK(a->apply(3, Command{Op::put, "k", bytes_of("two"), 0, "d", 1})->version == 2);

    auto snap = a->snapshot();
    REQUIRE(snap.ok());
    auto b = open_store(dir.path() / "b.sqlite");
    REQUIRE(b->restore(*snap).ok());
    auto after_restore = b->apply(4, Command{Op::put, "k", bytes_of("three"), 0, "d", 1});
    REQUIRE(after_restore.ok());
    CHECK(after_restore->repeated);
    CHECK(after_restore->version == 2);
    CHECK(b->get("k")->version == 2);
}

TEST_CASE("store: local records are separate, versioned, and scanned by prefix") {
    TempDir dir("drdunit");
    auto s = open_store(dir.path() / "drd.sqlite");
    CHECK(*s->put_local("l/a", bytes_of("1")) == 1);
    CHECK(*s->put_local("l/a", bytes_of("2")) == 2);
    CHECK_FALSE(s->get("l/a"));  // not a replicated record
    CHECK(s->get_local("l/a")->value == bytes_of("2"));
    CHECK(s->del_local("l/a"));
    CHECK_FALSE(s->del_local("l/a"));

    apply(*s, 1, Op::put, "ab", "");
    apply(*s, 2, Op::put, std::string("a\xff", 2), "");
    apply(*s, 3, Op::put, "b", "");
    auto under_a = s->scan("a");
    CHECK(under_a.size() == 2);
    CHECK(s->scan("").size() == 3);
    CHECK(s->scan(std::string("a\xff", 2)).size() == 1);
    CHECK(s->scan("c").empty());
}

TEST_CASE("raft handshake: the same key authenticates both ways, a wrong key fails each way") {
    Nonce cn{}, sn{};
    random_bytes(cn);
    random_bytes(sn);
    auto hello = auth::make_client_hello(cn);
    auto s1 = auth::answer_client_hello(key_of(1), hello, 42, sn);
    REQUIRE(s1.ok());

    auto c2 = auth::answer_server_hello(key_of(1), hello, *s1, 42, 7, "127.0.0.1:9000");
    REQUIRE(c2.ok());
    auto peer = auth::check_client_auth(key_of(1), hello, *s1, *c2);
    REQUIRE(peer.ok());
    CHECK(peer->id == 7);
    CHECK(peer->address == "127.0.0.1:9000");

    // The client notices a server without the key, or the wrong server.
    CHECK(auth::answer_server_hello(key_of(2), hello, *s1, 42, 7, "x").error().status == HARNESS_ERR_AUTH);
    CHECK(auth::answer_server_hello(key_of(1), hello, *s1, 43, 7, "x").error().status == HARNESS_ERR_AUTH);
    // The server notices a client without the key.
    auto forged = auth::make_client_auth(key_of(2), hello, *s1, 7, "127.0.0.1:9000");
    REQUIRE(forged.ok());
    CHECK(auth::check_client_auth(key_of(1), hello, *s1, *forged).error().status == HARNESS_ERR_AUTH);
    // A replayed server MAC is not a client MAC.
    auth::ClientAuth reflected{};
    std::copy(s1->begin() + 40, s1->end(), reflected.begin() + 8 + auth::kAddressField);
    CHECK_FALSE(auth::check_client_auth(key_of(1), hello, *s1, reflected).ok());
    // Not our protocol at all.
    auth::ClientHello junk{};
    CHECK(auth::answer_client_hello(key_of(1), junk, 42, sn).error().status == HARNESS_ERR_PROTOCOL);
}
