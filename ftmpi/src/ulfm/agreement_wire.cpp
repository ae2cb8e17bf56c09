// Encoding and decoding of the agreement's messages (agreement_wire.hpp).
#include "agreement_wire.hpp"

#include <bit>

namespace ftmpi::ulfm::wire {

int count(const Bits &b) {
    int n = 0;
    for (uint32_t w : b) n += std::popcount(w);
    return n;
}

bool subset(const Bits &a, const Bits &b) {
    for (size_t i = 0; i < a.size(); ++i)
        if ((a[i] & ~b[i]) != 0) return false;
    return true;
}

bool unite(Bits &into, const Bits &from) {
    bool changed = false;
    for (size_t i = 0; i < into.size(); ++i) {
        const uint32_t w = into[i] | from[i];
        changed = changed || w != into[i];
        into[i] = w;
    }
    return changed;
}

bool ballot_less(const Bits &a, const Bits &b) {
    const int ca = count(a), cb = count(b);
    if (ca != cb) return ca < cb;
    return a < b;
}

void combine(Value &into, const Value &from) {
    into.flag &= from.flag;
    into.unacked |= from.unacked;
    unite(into.failed, from.failed);
    if (from.acked.empty()) return;
    if (into.acked.empty()) {
        into.acked = from.acked;
        return;
    }
    for (size_t i = 0; i < into.acked.size() && i < from.acked.size(); ++i) into.acked[i] &= from.acked[i];
}

namespace {
// Layout: kind, instance, sender, settled, all_settled, ballot[W], value (flag, unacked, failed[W],
// acked[W]), carried, carried_ballot[W], carried_value (the same as value).
void put_bits(std::vector<int32_t> &out, const Bits &b) {
    for (uint32_t w : b) out.push_back(static_cast<int32_t>(w));
}
void put_value(std::vector<int32_t> &out, const Value &v, size_t words) {
    out.push_back(static_cast<int32_t>(v.flag));
    out.push_back(static_cast<int32_t>(v.unacked));
    put_bits(out, v.failed);
    for (size_t i = 0; i < words; ++i) out.push_back(static_cast<int32_t>(i < v.acked.size() ? v.acked[i] : ~0u));
}
void get_bits(const int32_t *&p, size_t words, Bits &b) {
    b.assign(words, 0);
    for (size_t i = 0; i < words; ++i) b[i] = static_cast<uint32_t>(*p++);
}
void get_value(const int32_t *&p, size_t words, Value &v) {
    v.flag = static_cast<uint32_t>(*p++);
    v.unacked = static_cast<uint32_t>(*p++);
    get_bits(p, words, v.failed);
    get_bits(p, words, v.acked);
}
}  // namespace

size_t message_ints(int n) {
    return 10 + 6 * words_for(n);
}

std::vector<int32_t> encode(const Message &m, int n) {
    std::vector<int32_t> out;
    encode(m, n, out);
    return out;
}

void encode(const Message &m, int n, std::vector<int32_t> &out) {
    out.clear();
    out.reserve(message_ints(n));
    out.push_back(static_cast<int32_t>(m.kind));
    out.push_back(static_cast<int32_t>(m.instance));
    out.push_back(m.sender);
    out.push_back(static_cast<int32_t>(m.settled));
    out.push_back(static_cast<int32_t>(m.all_settled));
    put_bits(out, m.ballot);
    put_value(out, m.value, words_for(n));
    out.push_back(static_cast<int32_t>(m.carried));
    put_bits(out, m.carried_ballot);
    put_value(out, m.carried_value, words_for(n));
}

bool decode(const int32_t *ints, size_t count, int n, Message &out) {
    if (count != message_ints(n)) return false;
    const size_t words = words_for(n);
    const int32_t *p = ints;
    const int32_t kind = *p++;
    if (kind < static_cast<int32_t>(Kind::up) || kind > static_cast<int32_t>(Kind::released)) return false;
    out.kind = static_cast<Kind>(kind);
    out.instance = static_cast<uint32_t>(*p++);
    out.sender = *p++;
    out.settled = static_cast<uint32_t>(*p++);
    out.all_settled = static_cast<uint32_t>(*p++);
    if (out.sender < 0 || out.sender >= n) return false;
    get_bits(p, words, out.ballot);
    get_value(p, words, out.value);
    const int32_t carried = *p++;
    if (carried < 0 || carried > 2) return false;
    out.carried = static_cast<Carried>(carried);
    get_bits(p, words, out.carried_ballot);
    get_value(p, words, out.carried_value);
    return true;
}

}  // namespace ftmpi::ulfm::wire
