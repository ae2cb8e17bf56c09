// AUTO signatures (harness/common/signature.hpp): parsing, printing, checking
// packed arguments against them.
#include <harness/common/signature.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>

using namespace harness;

TEST_CASE("signatures parse") {
    auto s = parse_signature("i64(i64,i64)");
    REQUIRE(s.ok());
    CHECK(s->result == HARNESS_T_I64);
    CHECK(s->args == std::vector<int>{HARNESS_T_I64, HARNESS_T_I64});

    auto v = parse_signature("void()");
    REQUIRE(v.ok());
    CHECK(v->result == 0);
    CHECK(v->args.empty());

    auto all = parse_signature("bytes(i32,i64,u64,f64,bool,str,bytes)");
    REQUIRE(all.ok());
    CHECK(all->result == HARNESS_T_BYTES);
    CHECK(all->args.size() == 7);

    auto inner = parse_signature("str( i64 , str )");
    REQUIRE(inner.ok());
    CHECK(inner->to_string() == "str(i64,str)");
}

TEST_CASE("to_string round-trips") {
    for (const char *text : {"i64(i64,i64)", "void()", "str(str)", "f64(f64,f64)", "bool(bytes,u64,i32)", "str()"}) {
        CAPTURE(text);
        auto s = parse_signature(text);
        REQUIRE(s.ok());
        CHECK(s->to_string() == text);
        CHECK(parse_signature(s->to_string()).value() == s.value());
    }
}

TEST_CASE("malformed signatures are refused") {
    for (const char *text : {"", "i64", "i64(", "i64)", "(i64)", "foo()", "i64(foo)", "i64(i64,)", "i64(,i64)",
                             "void(void)", "i64(i64 i64)", "i64(i64))"}) {
        CAPTURE(text);
        auto s = parse_signature(text);
        REQUIRE_FALSE(s.ok());
        CHECK(s.error().status == HARNESS_ERR_INVALID_ARGUMENT);
    }
}

TEST_CASE("type names") {
    CHECK(std::string(type_name(HARNESS_T_BOOL)) == "bool");
    CHECK(std::string(type_name(0)) == "void");
    CHECK(std::string(type_name(99)) == "void");
    CHECK(type_from_name("bytes") == HARNESS_T_BYTES);
    CHECK(type_from_name("void") == 0);
    CHECK(type_from_name("I64") == 0);
}

TEST_CASE("unpack_values accepts exactly matching arguments") {
    auto sig = parse_signature("void(i64,str,bytes,f64,bool,i32,u64)").value();
    Packer p;
    p.i64(-5).str("hi").bytes(Bytes{1, 2, 3}).f64(1.5).boolean(true).i32(7).u64(8);
    Bytes buf = p.take();
    auto v = unpack_values(sig, buf);
    REQUIRE(v.ok());
    REQUIRE(v->size() == 7);
    CHECK((*v)[0].v.i64 == -5);
    CHECK((*v)[1].v.blob.len == 2);
    CHECK(std::memcmp((*v)[1].v.blob.data, "hi", 2) == 0);
    CHECK((*v)[1].v.blob.owned == 0);
    // Blobs point into the packed buffer.
    auto *first = static_cast<const std::uint8_t *>((*v)[2].v.blob.data);
    CHECK(first >= buf.data());
    CHECK(first < buf.data() + buf.size());
    CHECK((*v)[3].v.f64 == 1.5);
    CHECK((*v)[4].v.boolean == 1);
    CHECK((*v)[5].v.i32 == 7);
    CHECK((*v)[6].v.u64 == 8);
}

TEST_CASE("unpack_values refuses mismatches") {
    auto sig = parse_signature("i64(i64,i64)").value();
    auto expect = [&](Packer &p, int status, const char *words) {
        Bytes buf = p.take();
        auto v = unpack_values(sig, buf);
        REQUIRE_FALSE(v.ok());
        CHECK(v.error().status == status);
        CHECK(v.error().message.find(words) != std::string::npos);
    };
    SUBCASE("wrong type") {
        Packer p;
        p.i64(1).str("2");
        expect(p, HARNESS_ERR_TYPE_MISMATCH, "argument 2 of i64(i64,i64) must be i64, got str");
    }
    SUBCASE("i32 is not i64") {
        Packer p;
        p.i32(1).i64(2);
        expect(p, HARNESS_ERR_TYPE_MISMATCH, "must be i64, got i32");
    }
    SUBCASE("too few") {
        Packer p;
        p.i64(1);
        expect(p, HARNESS_ERR_TYPE_MISMATCH, "got nothing");
    }
    SUBCASE("too many") {
        Packer p;
        p.i64(1).i64(2).i64(3);
        expect(p, HARNESS_ERR_TYPE_MISMATCH, "too many");
    }
    SUBCASE("truncated") {
        Packer p;
        p.i64(1).i64(2);
        Bytes buf = p.take();
        buf.pop_back();
        auto v = unpack_values(sig, buf);
        REQUIRE_FALSE(v.ok());
        CHECK(v.error().status == HARNESS_ERR_PROTOCOL);
    }
    SUBCASE("unknown tag") {
        Bytes buf = {0x42, 0, 0, 0, 0, 0, 0, 0, 0};
        auto v = unpack_values(sig, buf);
        REQUIRE_FALSE(v.ok());
        CHECK(v.error().status == HARNESS_ERR_TYPE_MISMATCH);
    }
}

TEST_CASE("no arguments") {
    auto sig = parse_signature("i64()").value();
    CHECK(unpack_values(sig, Bytes{}).ok());
    Packer p;
    p.i64(1);
    CHECK_FALSE(unpack_values(sig, p.take()).ok());
}

TEST_CASE("pack_value and release_value") {
    harness_value s{};
    s.type = HARNESS_T_STR;
    char *text = static_cast<char *>(std::malloc(3));
    std::memcpy(text, "abc", 3);
    s.v.blob.data = text;
    s.v.blob.len = 3;
    s.v.blob.owned = 1;
    harness_value n{};
    n.type = HARNESS_T_F64;
    n.v.f64 = 0.5;
    harness_value nothing{};  // void

    Packer p;
    pack_value(p, s);
    pack_value(p, n);
    pack_value(p, nothing);
    Bytes buf = p.take();
    Unpacker u(buf);
    std::string str;
    double d = 0;
    REQUIRE(u.str(str));
    REQUIRE(u.f64(d));
    CHECK(u.done());
    CHECK(str == "abc");
    CHECK(d == 0.5);

    release_value(s);  // frees the malloc'ed blob (LeakSanitizer checks)
    CHECK(s.v.blob.data == nullptr);
    CHECK(s.v.blob.owned == 0);
    release_value(s);  // twice is harmless
    release_value(n);
}
