#include <harness/common/udp_seal.hpp>

#include <cstring>

namespace harness {

UdpSealer::UdpSealer(VmKey key) : mac_(key), nonce_(random_u64()) {}

std::vector<std::uint8_t> UdpSealer::seal(std::span<const std::uint8_t> frame) {
    std::vector<std::uint8_t> d(frame.size() + kSealSize);
    if (!frame.empty()) std::memcpy(d.data(), frame.data(), frame.size());
    harness_put_le(&d[frame.size()], nonce_, 8);
    harness_put_le(&d[frame.size() + 8], ++seq_, 8);
    Mac mac = mac_.mac(std::span<const std::uint8_t>(d).first(frame.size() + 16));
    std::memcpy(&d[frame.size() + 16], mac.data(), mac.size());
    return d;
}

UdpOpener::UdpOpener(VmKey key, std::size_t max_senders) : mac_(key), max_senders_(max_senders) {}

Result<OpenedDatagram> UdpOpener::open(std::span<const std::uint8_t> d) {
    if (d.size() < protocol::kHeaderSize + kSealSize)
        return make_error(HARNESS_ERR_PROTOCOL, "datagram too short to be sealed");
    std::size_t signed_len = d.size() - protocol::kMacSize;
    Mac mac = mac_.mac(d.first(signed_len));
    if (!equal_constant_time(mac, d.subspan(signed_len)))
        return make_error(HARNESS_ERR_AUTH, "datagram MAC does not verify with the VM key");
    OpenedDatagram o;
    o.sender_nonce = harness_get_le(&d[signed_len - 16], 8);
    o.seq = harness_get_le(&d[signed_len - 8], 8);
    o.frame = d.first(signed_len - 16);
    if (!accept(o.sender_nonce, o.seq)) return make_error(HARNESS_ERR_AUTH, "replayed or stale datagram");
    return o;
}

bool UdpOpener::accept(std::uint64_t sender, std::uint64_t seq) {
    if (seq == 0) return false;
    auto it = windows_.find(sender);
    if (it == windows_.end()) {
        if (windows_.size() >= max_senders_) {
            windows_.erase(lru_.back());
            lru_.pop_back();
        }
        lru_.push_front(sender);
        windows_.emplace(sender, Window{seq, 1, lru_.begin()});
        return true;
    }
    Window &w = it->second;
    lru_.splice(lru_.begin(), lru_, w.lru);
    if (seq > w.highest) {
        std::uint64_t shift = seq - w.highest;
        w.bits = shift >= 64 ? 1 : (w.bits << shift) | 1;
        w.highest = seq;
        return true;
    }
    std::uint64_t back = w.highest - seq;
    if (back >= 64) return false;
    std::uint64_t bit = std::uint64_t{1} << back;
    if (w.bits & bit) return false;
    w.bits |= bit;
    return true;
}

}  // namespace harness
