// UDP datagram seal (harness/common/udp_seal.hpp): MAC, replay window, ordering.
#include <harness/common/protocol.hpp>
#include <harness/common/udp_seal.hpp>

#include <doctest/doctest.h>

#include <vector>

using namespace harness;

namespace {

VmKey key_of(std::uint8_t fill) {
    return VmKey{std::vector<std::uint8_t>(32, fill)};
}

std::vector<std::uint8_t> frame(std::uint64_t id) {
    protocol::Header h;
    h.type = static_cast<std::uint8_t>(protocol::Type::ping);
    h.request_id = id;
    auto b = protocol::encode_header(h);
    return {b.begin(), b.end()};
}

}  // namespace

TEST_CASE("a sealed datagram opens to its frame") {
    UdpSealer sealer(key_of(1));
    UdpOpener opener(key_of(1));
    auto f = frame(42);
    auto d = sealer.seal(f);
    CHECK(d.size() == f.size() + kSealSize);
    auto o = opener.open(d);
    REQUIRE(o.ok());
    CHECK(std::vector<std::uint8_t>(o->frame.begin(), o->frame.end()) == f);
    CHECK(o->sender_nonce == sealer.sender_nonce());
    CHECK(o->seq == 1);
}

TEST_CASE("any tampered byte is refused") {
    UdpSealer sealer(key_of(1));
    UdpOpener opener(key_of(1));
    auto d = sealer.seal(frame(1));
    for (std::size_t i = 0; i < d.size(); ++i) {
        CAPTURE(i);
        auto t = d;
        t[i] ^= 0x01;
        auto o = opener.open(t);
        REQUIRE_FALSE(o.ok());
        CHECK(o.error().status == HARNESS_ERR_AUTH);
    }
    // The failures did not consume the genuine datagram's sequence number.
    CHECK(opener.open(d).ok());
}

TEST_CASE("another VM's key is refused") {
    UdpSealer sealer(key_of(1));
    UdpOpener opener(key_of(2));
    auto o = opener.open(sealer.seal(frame(1)));
    REQUIRE_FALSE(o.ok());
    CHECK(o.error().status == HARNESS_ERR_AUTH);
}

TEST_CASE("a replayed datagram is refused") {
    UdpSealer sealer(key_of(1));
    UdpOpener opener(key_of(1));
    auto d = sealer.seal(frame(1));
    REQUIRE(opener.open(d).ok());
    auto again = opener.open(d);
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().status == HARNESS_ERR_AUTH);
}

TEST_CASE("out-of-order datagrams within the window are accepted once") {
    UdpSealer sealer(key_of(1));
    UdpOpener opener(key_of(1));
    std::vector<std::vector<std::uint8_t>> d;
    for (int i = 0; i < 5; ++i) d.push_back(sealer.seal(frame(static_cast<std::uint64_t>(i))));
    for (int i : {4, 2, 0, 1, 3}) {
        CAPTURE(i);
        CHECK(opener.open(d[static_cast<std::size_t>(i)]).ok());
    }
    for (const auto &x : d) CHECK_FALSE(opener.open(x).ok());
}

TEST_CASE("a datagram older than the window is refused") {
    UdpSealer sealer(key_of(1));
    UdpOpener opener(key_of(1));
    std::vector<std::vector<std::uint8_t>> d;
    for (int i = 1; i <= 70; ++i) d.push_back(sealer.seal(frame(static_cast<std::uint64_t>(i))));
    REQUIRE(opener.open(d[69]).ok());  // seq 70
    auto old = opener.open(d[5]);      // seq 6: 64 behind
    REQUIRE_FALSE(old.ok());
    CHECK(old.error().status == HARNESS_ERR_AUTH);
    CHECK(opener.open(d[6]).ok());  // seq 7: 63 behind, the window's oldest slot
}

TEST_CASE("senders are tracked separately") {
    UdpSealer a(key_of(1)), b(key_of(1));
    UdpOpener opener(key_of(1));
    auto da = a.seal(frame(1));
    auto db = b.seal(frame(1));
    CHECK(opener.open(da).ok());
    CHECK(opener.open(db).ok());  // same seq, another sender
}

TEST_CASE("short datagrams and sequence number zero are refused") {
    UdpOpener opener(key_of(1));
    std::vector<std::uint8_t> tiny(protocol::kHeaderSize + kSealSize - 1, 0);
    auto o = opener.open(tiny);
    REQUIRE_FALSE(o.ok());
    CHECK(o.error().status == HARNESS_ERR_PROTOCOL);

    // A correctly MACed datagram with seq 0 (no sealer produces one).
    auto d = frame(1);
    d.resize(d.size() + 16, 0);
    harness_put_le(&d[d.size() - 16], 12345, 8);
    Mac mac = hmac_sha256(key_of(1), {std::span<const std::uint8_t>(d)});
    d.insert(d.end(), mac.begin(), mac.end());
    CHECK_FALSE(opener.open(d).ok());
}
