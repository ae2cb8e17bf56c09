// Frame header (harness/common/protocol.hpp): encoding, and refusal of bad magic,
// bad version, truncated headers and oversize bodies.
#include <harness/common/protocol.hpp>

#include <doctest/doctest.h>

using namespace harness::protocol;

namespace {

Header sample() {
    Header h;
    h.type = static_cast<std::uint8_t>(Type::call);
    h.flags = kFlagReply;
    h.request_id = 0x0102030405060708ull;
    h.body_len = 1000;
    h.status = -3;
    return h;
}

}  // namespace

TEST_CASE("a header round-trips") {
    Header h = sample();
    HeaderBytes b = encode_header(h);
    auto d = decode_header(b, kDefaultMaxBody);
    REQUIRE(d.ok());
    CHECK(d->type == h.type);
    CHECK(d->flags == h.flags);
    CHECK(d->is_reply());
    CHECK(d->request_id == h.request_id);
    CHECK(d->body_len == h.body_len);
    CHECK(d->status == -3);
}

TEST_CASE("the header layout is fixed little-endian") {
    HeaderBytes b = encode_header(sample());
    CHECK(b.size() == kHeaderSize);
    CHECK(std::string(b.begin(), b.begin() + 4) == "HRNS");
    CHECK(b[4] == kVersion);
    CHECK(b[5] == static_cast<std::uint8_t>(Type::call));
    CHECK(b[6] == 1);
    CHECK(b[7] == 0);
    CHECK(b[8] == 0x08);
    CHECK(b[15] == 0x01);
    CHECK(b[16] == (1000 & 0xff));
    CHECK(b[17] == (1000 >> 8));
    CHECK(b[20] == 0xfd);  // -3
    CHECK(b[23] == 0xff);
}

TEST_CASE("bad headers are refused") {
    HeaderBytes b = encode_header(sample());
    SUBCASE("bad magic") {
        b[0] ^= 0x20;
        auto d = decode_header(b, kDefaultMaxBody);
        REQUIRE_FALSE(d.ok());
        CHECK(d.error().status == HARNESS_ERR_PROTOCOL);
        CHECK(d.error().message.find("magic") != std::string::npos);
    }
    SUBCASE("bad version") {
        b[4] = kVersion + 1;
        auto d = decode_header(b, kDefaultMaxBody);
        REQUIRE_FALSE(d.ok());
        CHECK(d.error().status == HARNESS_ERR_PROTOCOL);
        CHECK(d.error().message.find("version") != std::string::npos);
    }
    SUBCASE("every truncation") {
        for (std::size_t n = 0; n < kHeaderSize; ++n) {
            CAPTURE(n);
            auto d = decode_header(std::span<const std::uint8_t>(b.data(), n), kDefaultMaxBody);
            REQUIRE_FALSE(d.ok());
            CHECK(d.error().status == HARNESS_ERR_PROTOCOL);
        }
    }
}

TEST_CASE("the body limit is inclusive") {
    Header h = sample();
    h.body_len = 4096;
    HeaderBytes b = encode_header(h);
    CHECK(decode_header(b, 4096).ok());
    auto d = decode_header(b, 4095);
    REQUIRE_FALSE(d.ok());
    CHECK(d.error().status == HARNESS_ERR_TOO_LARGE);

    h.body_len = 0xffffffffu;
    auto huge = decode_header(encode_header(h), kDefaultMaxBody);
    REQUIRE_FALSE(huge.ok());
    CHECK(huge.error().status == HARNESS_ERR_TOO_LARGE);
}

TEST_CASE("message types have names") {
    CHECK(std::string(type_name(static_cast<std::uint8_t>(Type::hello))) == "hello");
    CHECK(std::string(type_name(static_cast<std::uint8_t>(Type::heartbeat))) == "heartbeat");
    CHECK(is_known_type(static_cast<std::uint8_t>(Type::call)));
    CHECK_FALSE(is_known_type(0));
    CHECK_FALSE(is_known_type(200));
    CHECK(std::string(type_name(200)) == "unknown");
}
