// C++ ↔ pack types at compile time (harness/common/types.hpp).
#include <harness/common/signature.hpp>
#include <harness/common/types.hpp>

#include <doctest/doctest.h>

#include <string_view>

using namespace harness;

// Signature texts are compile-time constants.
static_assert(std::string_view(signature_text<std::int64_t, std::int64_t, std::int64_t>::c_str()) == "i64(i64,i64)");
static_assert(std::string_view(signature_text<void>::c_str()) == "void()");
static_assert(std::string_view(signature_text<std::string, std::string_view>::c_str()) == "str(str)");
static_assert(std::string_view(signature_text<const std::string &, const Bytes &>::c_str()) == "str(bytes)");

TEST_CASE("signature_text covers every type and parses back") {
    using S = signature_text<Bytes, std::int32_t, std::int64_t, std::uint64_t, double, bool, std::string, Bytes>;
    std::string text = S::c_str();
    CHECK(text == "bytes(i32,i64,u64,f64,bool,str,bytes)");
    auto sig = parse_signature(text);
    REQUIRE(sig.ok());
    CHECK(sig->to_string() == text);
    CHECK(std::string(signature_text<double>::c_str()) == "f64()");
    CHECK(std::string(signature_text<void, bool>::c_str()) == "void(bool)");
}

TEST_CASE("type tags match plugin.h") {
    CHECK(type_traits<std::int32_t>::tag == HARNESS_T_I32);
    CHECK(type_traits<std::int64_t>::tag == HARNESS_T_I64);
    CHECK(type_traits<std::uint64_t>::tag == HARNESS_T_U64);
    CHECK(type_traits<double>::tag == HARNESS_T_F64);
    CHECK(type_traits<bool>::tag == HARNESS_T_BOOL);
    CHECK(type_traits<std::string>::tag == HARNESS_T_STR);
    CHECK(type_traits<std::string_view>::tag == HARNESS_T_STR);
    CHECK(type_traits<Bytes>::tag == HARNESS_T_BYTES);
    CHECK(type_traits<void>::tag == 0);
}

TEST_CASE("pack_typed and unpack_typed round-trip") {
    Packer p;
    pack_typed(p, std::int32_t{-1});
    pack_typed(p, std::int64_t{1} << 40);
    pack_typed(p, std::uint64_t{7});
    pack_typed(p, 3.25);
    pack_typed(p, false);
    pack_typed(p, "c-string");
    pack_typed(p, std::string("string"));
    pack_typed(p, Bytes{4, 5});
    Bytes buf = p.take();
    Unpacker u(buf);
    std::int32_t a = 0;
    std::int64_t b = 0;
    std::uint64_t c = 0;
    double d = 0;
    bool e = true;
    std::string f, g;
    Bytes h;
    REQUIRE(unpack_typed(u, a));
    REQUIRE(unpack_typed(u, b));
    REQUIRE(unpack_typed(u, c));
    REQUIRE(unpack_typed(u, d));
    REQUIRE(unpack_typed(u, e));
    REQUIRE(unpack_typed(u, f));
    REQUIRE(unpack_typed(u, g));
    REQUIRE(unpack_typed(u, h));
    CHECK(u.done());
    CHECK(a == -1);
    CHECK(b == std::int64_t{1} << 40);
    CHECK(c == 7);
    CHECK(d == 3.25);
    CHECK_FALSE(e);
    CHECK(f == "c-string");
    CHECK(g == "string");
    CHECK(h == Bytes{4, 5});
    std::int32_t wrong = 0;
    CHECK_FALSE(unpack_typed(u, wrong));
}

TEST_CASE("from_value reads every type") {
    harness_value v{};
    v.v.i64 = -9;
    CHECK(from_value<std::int64_t>(v) == -9);
    v.v.boolean = 2;
    CHECK(from_value<bool>(v));
    const char text[] = "view";
    v.v.blob.data = text;
    v.v.blob.len = 4;
    CHECK(from_value<std::string_view>(v) == "view");
    CHECK(from_value<std::string>(v) == "view");
    CHECK(from_value<Bytes>(v) == Bytes{'v', 'i', 'e', 'w'});
}
