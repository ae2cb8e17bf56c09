// The parsers of every setting type: valid values, invalid ones, ranges and
// size suffixes, and what an error message says.
#include "settings/parse.hpp"

#include <doctest/doctest.h>

#include <climits>

using namespace ftmpi::settings;

namespace {

// An entry of the given type, with a range where the type has one.
Setting entry(Type type, long long min = 0, long long max = 100, const char *choices = nullptr,
              const char *unit = nullptr) {
    return {Id::log_level, "test", "FTMPI_TEST", type, nullptr, min, max, choices, unit, Origin::user, "a test entry"};
}

long long number(const Setting &s, const char *text) {
    auto parsed = parse(s, text);
    REQUIRE_MESSAGE(parsed.ok(), text << ": " << parsed.error().message);
    return parsed->number;
}

std::string refusal(const Setting &s, const char *text) {
    auto parsed = parse(s, text);
    REQUIRE_MESSAGE(!parsed.ok(), text << " was accepted");
    return parsed.error().message;
}

}  // namespace

TEST_CASE("boolean: the eight words, nothing else") {
    const Setting s = entry(Type::boolean);
    for (const char *yes : {"1", "yes", "on", "true"}) CHECK(number(s, yes) == 1);
    for (const char *no : {"0", "no", "off", "false"}) CHECK(number(s, no) == 0);
    for (const char *bad : {"2", "Yes", "y", "", " 1", "1 "}) {
        const std::string why = refusal(s, bad);
        CHECK(why.find("FTMPI_TEST=") == 0);
        CHECK(why.find("1, 0, yes, no, on, off, true or false") != std::string::npos);
    }
}

TEST_CASE("integer: decimal, hexadecimal, sign and range") {
    const Setting s = entry(Type::integer, -5, 1000);
    CHECK(number(s, "0") == 0);
    CHECK(number(s, "1000") == 1000);
    CHECK(number(s, "-5") == -5);
    CHECK(number(s, "0x10") == 16);
    CHECK(number(s, "0X1f") == 31);
    CHECK(refusal(s, "1001") == "FTMPI_TEST=1001: out of range (expected an integer from -5 to 1000)");
    CHECK(refusal(s, "-6").find("out of range") != std::string::npos);
    CHECK(refusal(s, "abc") == "FTMPI_TEST=abc: not a number (expected an integer from -5 to 1000)");
    for (const char *bad : {"", "-", "12x", "1.5", "0x", "1K", " 3", "99999999999999999999"})
        CHECK(refusal(s, bad).find("FTMPI_TEST=") == 0);
    const Setting open = entry(Type::integer, 1, LLONG_MAX);
    CHECK(number(open, "9223372036854775807") == LLONG_MAX);
    CHECK(refusal(open, "0") == "FTMPI_TEST=0: out of range (expected an integer 1 or more)");
}

TEST_CASE("size: K, M and G suffixes in either case, overflow and range") {
    const Setting s = entry(Type::size, 0, 1LL << 40);
    CHECK(number(s, "0") == 0);
    CHECK(number(s, "4096") == 4096);
    CHECK(number(s, "64K") == 64 * 1024);
    CHECK(number(s, "64k") == 64 * 1024);
    CHECK(number(s, "2M") == 2 * 1024 * 1024);
    CHECK(number(s, "1g") == 1LL << 30);
    CHECK(number(s, "1024G") == 1LL << 40);
    CHECK(number(s, "0x100") == 256);
    CHECK(refusal(s, "1025G").find("out of range") != std::string::npos);
    CHECK(refusal(s, "abc") ==
          "FTMPI_TEST=abc: not a number (expected a size in bytes from 0 to 1024G, with an optional K, M or G suffix)");
    CHECK(refusal(s, "64KB").find("not a number") != std::string::npos);
    CHECK(refusal(s, "64T").find("unknown suffix 'T'") != std::string::npos);
    CHECK(refusal(s, "-1K").find("out of range") != std::string::npos);
    CHECK(refusal(s, "9999999999999G").find("too large") != std::string::npos);
    CHECK(refusal(s, "K").find("not a number") != std::string::npos);
}

TEST_CASE("duration: whole units, the unit's own suffix allowed, range") {
    const Setting s = entry(Type::duration, 1, 60000, nullptr, "ms");
    CHECK(number(s, "1") == 1);
    CHECK(number(s, "500ms") == 500);
    CHECK(number(s, "60000") == 60000);
    CHECK(refusal(s, "0") == "FTMPI_TEST=0: out of range (expected a whole number of ms from 1 to 60000)");
    CHECK(refusal(s, "60001").find("out of range") != std::string::npos);
    CHECK(refusal(s, "5s").find("not a number") != std::string::npos);  // only the setting's own unit
    CHECK(refusal(s, "1.5").find("not a number") != std::string::npos);
    CHECK(refusal(s, "abc").find("not a number") != std::string::npos);
    const Setting micro = entry(Type::duration, 0, 100, nullptr, "us");
    CHECK(number(micro, "50us") == 50);
    CHECK(refusal(micro, "50ms").find("whole number of us") != std::string::npos);
}

TEST_CASE("string: any text") {
    const Setting s = entry(Type::string);
    for (const char *text : {"", "shm,tcp", "dir:/tmp/x y", "0x"}) {
        auto parsed = parse(s, text);
        REQUIRE(parsed.ok());
        CHECK(parsed->text == text);
    }
}

TEST_CASE("choice: the listed names, exactly; the index is the number") {
    const Setting s = entry(Type::choice, 0, 0, "ulfm,abort,rebuild,rebuild-append");
    CHECK(number(s, "ulfm") == 0);
    CHECK(number(s, "abort") == 1);
    CHECK(number(s, "rebuild") == 2);
    CHECK(number(s, "rebuild-append") == 3);
    CHECK(parse(s, "rebuild-append")->text == "rebuild-append");
    CHECK(refusal(s, "rebuil") ==
          "FTMPI_TEST=rebuil: not a known name (expected one of ulfm, abort, rebuild, "
          "rebuild-append)");
    for (const char *bad : {"", "ULFM", "ulfm,abort", "rebuild-", "append"}) CHECK(!parse(s, bad).ok());
}

TEST_CASE("every default in the table is a valid value of its entry") {
    for (const Setting &s : table()) {
        CAPTURE(s.env);
        CHECK(std::string(s.env).starts_with("FTMPI_"));
        CHECK(find(s.env) == &s);
        CHECK(&setting(s.id) == &s);
        CHECK(*s.help != '\0');
        if (s.type == Type::choice) CHECK(s.choices != nullptr);
        if (s.type == Type::duration) CHECK(s.unit != nullptr);
        if (s.fallback != nullptr) CHECK(parse(s, s.fallback).ok());
    }
    CHECK(find("FTMPI_NO_SUCH") == nullptr);
}
