// libFuzzer target: UDP datagram opening.
//
// The first input byte picks a mode:
//   even: the rest is a datagram from the network; open() must refuse it
//         cleanly (a forged MAC is out of the fuzzer's reach);
//   odd:  the rest is a script of (sender, sequence number) pairs that are
//         sealed with the right key, so the replay window itself is fuzzed.
//         Property: no (sender, seq) is ever accepted twice.
#include <harness/common/udp_seal.hpp>

#include <cstdlib>
#include <set>
#include <utility>
#include <vector>

using namespace harness;

namespace {

const VmKey &key() {
    static const VmKey k{std::vector<std::uint8_t>(32, 0x5a)};
    return k;
}

// A datagram with a valid MAC for any sender and sequence number.
std::vector<std::uint8_t> forge(std::uint64_t sender, std::uint64_t seq) {
    protocol::Header h;
    h.type = static_cast<std::uint8_t>(protocol::Type::ping);
    auto head = protocol::encode_header(h);
    std::vector<std::uint8_t> d(head.begin(), head.end());
    d.resize(d.size() + 16);
    harness_put_le(&d[protocol::kHeaderSize], sender, 8);
    harness_put_le(&d[protocol::kHeaderSize + 8], seq, 8);
    Mac mac = hmac_sha256(key(), {std::span<const std::uint8_t>(d)});
    d.insert(d.end(), mac.begin(), mac.end());
    return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0) return 0;
    if ((data[0] & 1) == 0) {
        UdpOpener opener(key());
        auto o = opener.open({data + 1, size - 1});
        if (o) std::abort();  // a MAC was forged?
        return 0;
    }
    // Three senders under a bound of four: none is evicted, so no datagram
    // may ever be accepted twice.
    UdpOpener opener(key(), 4);
    std::set<std::pair<std::uint64_t, std::uint64_t>> accepted;
    std::uint64_t base = 0;
    for (std::size_t i = 1; i + 3 <= size; i += 3) {
        std::uint64_t sender = data[i] % 3;
        // Sequence numbers near a moving base reach every window position.
        std::uint64_t delta = data[i + 1] | (std::uint64_t{data[i + 2]} << 8);
        std::uint64_t seq =
            (delta & 0x8000) ? base + (delta & 0x7fff) : (base > (delta & 0xff) ? base - (delta & 0xff) : 0);
        if (seq > base) base = seq;
        auto d = forge(sender, seq);
        auto o = opener.open(d);
        if (!o) continue;
        if (o->seq != seq || o->sender_nonce != sender) std::abort();
        if (!accepted.insert({sender, seq}).second) std::abort();
    }
    return 0;
}
