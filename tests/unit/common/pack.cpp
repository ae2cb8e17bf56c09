// Pack buffer (harness/common/pack.hpp over plugin.h): round trips, truncation and
// mistyped reads fail cleanly, errors are sticky.
#include <harness/common/pack.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

using harness::Bytes;
using harness::Packer;
using harness::Unpacker;

namespace {

// One of each item type; the sequence the truncation tests cut up.
Bytes sample() {
    Packer p;
    const std::uint8_t raw[] = {0, 1, 2, 0xff};
    p.i32(-123).i64(std::numeric_limits<std::int64_t>::min()).u64(std::numeric_limits<std::uint64_t>::max());
    p.f64(-0.25).boolean(true).str("héllo").bytes(raw).str("");
    REQUIRE_FALSE(p.failed());
    return p.take();
}

// Reads the whole sample; true only if every item came back intact.
bool read_sample(Unpacker &u) {
    std::int32_t a = 0;
    std::int64_t b = 0;
    std::uint64_t c = 0;
    double d = 0;
    bool e = false;
    std::string f, h = "x";
    Bytes g;
    if (!u.i32(a) || !u.i64(b) || !u.u64(c) || !u.f64(d) || !u.boolean(e) || !u.str(f) || !u.bytes(g) || !u.str(h))
        return false;
    return a == -123 && b == std::numeric_limits<std::int64_t>::min() &&
        c == std::numeric_limits<std::uint64_t>::max() && d == -0.25 && e && f == "héllo" &&
        g == Bytes{0, 1, 2, 0xff} && h.empty() && u.done();
}

}  // namespace

TEST_CASE("every type round-trips") {
    Bytes buf = sample();
    Unpacker u(buf);
    CHECK(read_sample(u));
    CHECK(u.done());
    CHECK(u.rest().empty());
}

TEST_CASE("the encoding is tag then little-endian value") {
    Packer p;
    p.i32(0x01020304).str("ab");
    Bytes expect = {HARNESS_T_I32, 4, 3, 2, 1, HARNESS_T_STR, 2, 0, 0, 0, 'a', 'b'};
    CHECK(p.take() == expect);
}

TEST_CASE("special floating-point values keep their bits") {
    Packer p;
    p.f64(std::numeric_limits<double>::infinity()).f64(std::nan("")).f64(-0.0);
    Bytes buf = p.take();
    Unpacker u(buf);
    double inf = 0, nan = 0, negzero = 1;
    REQUIRE(u.f64(inf));
    REQUIRE(u.f64(nan));
    REQUIRE(u.f64(negzero));
    CHECK(std::isinf(inf));
    CHECK(std::isnan(nan));
    CHECK(std::signbit(negzero));
}

TEST_CASE("every truncation of a valid buffer fails cleanly") {
    Bytes full = sample();
    for (std::size_t n = 0; n < full.size(); ++n) {
        CAPTURE(n);
        // A copy of exactly n bytes, so a read past the end is a real overrun
        // that AddressSanitizer would report.
        Bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
        Unpacker u(cut);
        CHECK_FALSE(read_sample(u));
        CHECK_FALSE(u.done());
    }
}

TEST_CASE("reading the wrong type fails and the error sticks") {
    Packer p;
    p.i64(5).i32(6);
    Bytes buf = p.take();
    Unpacker u(buf);
    std::int32_t v32 = 0;
    CHECK(u.peek_type() == HARNESS_T_I64);
    CHECK_FALSE(u.i32(v32));  // it is an i64
    CHECK(u.failed());
    std::int64_t v64 = 0;
    CHECK_FALSE(u.i64(v64));  // sticky: even the right type now fails
    CHECK(u.peek_type() == 0);
}

TEST_CASE("str and bytes tags are not interchangeable") {
    Packer p;
    p.str("text");
    Bytes buf = p.take();
    Unpacker u1(buf);
    Bytes out;
    CHECK_FALSE(u1.bytes(out));
    Unpacker u2(buf);
    std::string s;
    CHECK(u2.str(s));
    CHECK(s == "text");
}

TEST_CASE("malformed items are refused") {
    SUBCASE("unknown tag") {
        Bytes buf = {0x63, 1, 2, 3, 4};
        Unpacker u(buf);
        std::int32_t v = 0;
        CHECK_FALSE(u.i32(v));
    }
    SUBCASE("bool other than 0 or 1") {
        Bytes buf = {HARNESS_T_BOOL, 2};
        Unpacker u(buf);
        bool b = false;
        CHECK_FALSE(u.boolean(b));
    }
    SUBCASE("string length past the end") {
        Bytes buf = {HARNESS_T_STR, 5, 0, 0, 0, 'a', 'b'};
        Unpacker u(buf);
        std::string s;
        CHECK_FALSE(u.str(s));
    }
    SUBCASE("huge string length does not wrap") {
        Bytes buf = {HARNESS_T_BYTES, 0xff, 0xff, 0xff, 0xff, 'a'};
        Unpacker u(buf);
        std::span<const std::uint8_t> s;
        CHECK_FALSE(u.bytes(s));
    }
    SUBCASE("empty buffer") {
        Unpacker u(std::span<const std::uint8_t>{});
        CHECK(u.done());
        CHECK(u.peek_type() == 0);
        std::uint64_t v = 0;
        CHECK_FALSE(u.u64(v));
    }
}

TEST_CASE("views point into the buffer without copying") {
    Packer p;
    p.str("abc").bytes(Bytes{9, 8});
    Bytes buf = p.take();
    Unpacker u(buf);
    std::string_view s;
    std::span<const std::uint8_t> b;
    REQUIRE(u.str_view(s));
    REQUIRE(u.bytes(b));
    CHECK(s == "abc");
    CHECK(s.data() == reinterpret_cast<const char *>(buf.data()) + 5);
    CHECK(b.size() == 2);
    CHECK(b.data() == buf.data() + 5 + 3 + 5);
}

TEST_CASE("Packer moves, clears, appends raw sequences and grows") {
    Packer a;
    a.i64(1);
    Packer b(std::move(a));
    CHECK(a.size() == 0);
    CHECK(b.size() == 9);
    Packer c;
    c.raw(b.view()).raw(b.view());
    CHECK(c.size() == 18);
    c.clear();
    CHECK(c.size() == 0);
    for (int i = 0; i < 10000; ++i) c.i32(i);
    CHECK_FALSE(c.failed());
    Bytes buf = c.take();
    Unpacker u(buf);
    std::int32_t v = 0;
    for (int i = 0; i < 10000; ++i) {
        REQUIRE(u.i32(v));
        REQUIRE(v == i);
    }
    CHECK(u.done());
    a = std::move(c);
    CHECK(a.size() == 50000);
}
