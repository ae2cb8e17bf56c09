// hconsole's argument literals: parsing, adapting to AUTO signatures, packing,
// and printing results back.
#include <harness/console/hconsole_literal.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace harness;
using namespace harness::hconsole;

namespace {

Literal parse(std::string_view text) {
    auto l = parse_literal(text);
    REQUIRE_MESSAGE(l.ok(), text);
    return *l;
}

int failure(std::string_view text) {
    auto l = parse_literal(text);
    REQUIRE_FALSE_MESSAGE(l.ok(), text);
    return l.error().status;
}

}  // namespace

TEST_CASE("typed literals") {
    CHECK(parse("i64:5").type == HARNESS_T_I64);
    CHECK(parse("i64:-9223372036854775808").i64 == INT64_MIN);
    CHECK(parse("i32:-7").i64 == -7);
    CHECK(parse("i32:-7").type == HARNESS_T_I32);
    CHECK(parse("u64:18446744073709551615").u64 == UINT64_MAX);
    CHECK(parse("f64:2.5").f64 == 2.5);
    CHECK(parse("f64:-1e3").f64 == -1000.0);
    CHECK(parse("bool:true").boolean);
    CHECK_FALSE(parse("bool:false").boolean);
    CHECK(parse("str:hello world").text == "hello world");
    CHECK(parse("str:").text.empty());
    CHECK(parse("str:i64:5").text == "i64:5");
    CHECK(parse("bytes:00ff10").bytes == Bytes{0x00, 0xff, 0x10});
    CHECK(parse("bytes:").bytes.empty());
    for (auto *text : {"i64:5", "str:x", "bytes:00"}) CHECK(parse(text).explicit_type);
}

TEST_CASE("malformed typed literals are errors") {
    CHECK(failure("i32:3000000000") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("i64:9223372036854775808") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("i64:5x") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("i64:") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("u64:-1") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("f64:abc") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("bool:yes") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("bytes:abc") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("bytes:zz") == HARNESS_ERR_INVALID_ARGUMENT);
    CHECK(failure("99999999999999999999") == HARNESS_ERR_INVALID_ARGUMENT);
}

TEST_CASE("bare literals") {
    CHECK(parse("5").type == HARNESS_T_I64);
    CHECK(parse("-5").i64 == -5);
    CHECK(parse("+5").i64 == 5);
    CHECK(parse("2.5").type == HARNESS_T_F64);
    CHECK(parse("-0.5").f64 == -0.5);
    CHECK(parse("hello").type == HARNESS_T_STR);
    CHECK(parse("1e5").type == HARNESS_T_STR);  // only a '.' makes a bare decimal
    CHECK(parse("1.2.3").type == HARNESS_T_STR);
    CHECK(parse("http://x:80").type == HARNESS_T_STR);  // unknown prefix: the whole text
    CHECK(parse("http://x:80").text == "http://x:80");
    CHECK(parse("true").type == HARNESS_T_STR);
    CHECK_FALSE(parse("5").explicit_type);
}

TEST_CASE("bare literals adapt to a signature, typed ones must match") {
    auto sig = parse_signature("i64(i32,u64,f64,str,bool)");
    REQUIRE(sig.ok());
    auto lits = parse_literals({"5", "6", "7", "8", "true"});
    REQUIRE(lits.ok());
    auto packed = pack_for_signature(*lits, *sig);
    REQUIRE(packed.ok());
    Unpacker u(*packed);
    std::int32_t a = 0;
    std::uint64_t b = 0;
    double c = 0;
    std::string d;
    bool e = false;
    CHECK(u.i32(a));
    CHECK(u.u64(b));
    CHECK(u.f64(c));
    CHECK(u.str(d));
    CHECK(u.boolean(e));
    CHECK(u.done());
    CHECK(a == 5);
    CHECK(b == 6);
    CHECK(c == 7.0);
    CHECK(d == "8");
    CHECK(e);

    auto i64sig = parse_signature("i64(i64)");
    REQUIRE(i64sig.ok());
    auto typed = parse_literals({"i32:5"});
    REQUIRE(typed.ok());
    auto refused = pack_for_signature(*typed, *i64sig);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().status == HARNESS_ERR_TYPE_MISMATCH);

    auto too_many = parse_literals({"1", "2"});
    REQUIRE(too_many.ok());
    CHECK(pack_for_signature(*too_many, *i64sig).error().status == HARNESS_ERR_TYPE_MISMATCH);

    // A bare value that does not fit stays an error, it is not truncated.
    auto i32sig = parse_signature("void(i32)");
    REQUIRE(i32sig.ok());
    auto big = parse_literals({"3000000000"});
    REQUIRE(big.ok());
    CHECK(pack_for_signature(*big, *i32sig).error().status == HARNESS_ERR_TYPE_MISMATCH);
    auto neg = parse_literals({"-1"});
    auto u64sig = parse_signature("void(u64)");
    REQUIRE(neg.ok());
    REQUIRE(u64sig.ok());
    CHECK(pack_for_signature(*neg, *u64sig).error().status == HARNESS_ERR_TYPE_MISMATCH);
    auto word = parse_literals({"hello"});
    REQUIRE(word.ok());
    CHECK(pack_for_signature(*word, *i64sig).error().status == HARNESS_ERR_TYPE_MISMATCH);
}

TEST_CASE("packed literals keep their written types and order") {
    auto lits = parse_literals({"i32:1", "2", "str:x", "bytes:ab", "2.5"});
    REQUIRE(lits.ok());
    Bytes packed = pack_literals(*lits);
    auto text = format_items(packed);
    REQUIRE(text.ok());
    CHECK(*text == std::vector<std::string>{"1", "2", "x", "ab", "2.5"});
    Unpacker u(packed);
    CHECK(u.peek_type() == HARNESS_T_I32);
}

TEST_CASE("results print as text and JSON") {
    Packer p;
    p.i64(-3).f64(0.1).boolean(false).str("hi").bytes(Bytes{1, 2}).u64(7);
    auto text = format_items(p.view());
    REQUIRE(text.ok());
    CHECK(*text == std::vector<std::string>{"-3", "0.1", "false", "hi", "0102", "7"});
    auto json = items_json(p.view());
    REQUIRE(json.ok());
    CHECK(json->dump() == R"([-3,0.1,false,"hi","0102",7])");

    CHECK(format_items({}).value().empty());
    const std::uint8_t garbage[] = {0x42, 0x01};
    CHECK_FALSE(format_items(garbage).ok());
    const std::uint8_t truncated[] = {HARNESS_T_I64, 0x01};
    CHECK_FALSE(format_items(truncated).ok());
}
