// What the agreement's messages carry, and their encoding.
//
// Sets of communicator ranks are bitmaps (Bits). A *ballot* is the set of
// members the sender knows failed: every participant of one epoch has the
// same set, so the set names the epoch. Ballots are totally ordered by
// (number of members, then the bitmap's words), and a process's ballot only
// grows, so its epochs only move up in that order.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ftmpi::ulfm::wire {

// A bitmap of members, 32 to a word. Up to inline_words words (128
// members) it lives inside the object: every message, value and ballot
// holds a few of these, and an agreement copies them at each step, so
// they must not cost an allocation each on the communicators most
// programs run.
class Bits {
public:
    Bits() = default;
    Bits(size_t words, uint32_t value) { assign(words, value); }

    void assign(size_t words, uint32_t value) {
        size_ = words;
        if (words <= inline_words) {
            large_.clear();
            std::fill_n(small_.begin(), words, value);
        } else {
            large_.assign(words, value);
        }
    }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    uint32_t *data() { return size_ <= inline_words ? small_.data() : large_.data(); }
    const uint32_t *data() const { return size_ <= inline_words ? small_.data() : large_.data(); }
    uint32_t &operator[](size_t i) { return data()[i]; }
    uint32_t operator[](size_t i) const { return data()[i]; }
    const uint32_t *begin() const { return data(); }
    const uint32_t *end() const { return data() + size_; }

    friend bool operator==(const Bits &a, const Bits &b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
    // Word by word, as std::vector's order (ballot_less relies on it).
    friend bool operator<(const Bits &a, const Bits &b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    static constexpr size_t inline_words = 4;
    std::array<uint32_t, inline_words> small_{};
    std::vector<uint32_t> large_;  // used above inline_words
    size_t size_ = 0;
};

inline size_t words_for(int n) {
    return (static_cast<size_t>(n) + 31) / 32;
}
inline bool test(const Bits &b, int r) {
    return (b[static_cast<size_t>(r) / 32] >> (r % 32)) & 1u;
}
inline void set(Bits &b, int r) {
    b[static_cast<size_t>(r) / 32] |= 1u << (r % 32);
}
int count(const Bits &);
bool subset(const Bits &a, const Bits &b);  // a ⊆ b
bool unite(Bits &into, const Bits &from);   // into |= from; true when into changed
bool ballot_less(const Bits &a, const Bits &b);

// The value agreed on (ft::Agreement on the wire).
struct Value {
    uint32_t flag = ~0u;
    uint32_t unacked = 0;
    Bits failed;
    // Members every contributor acknowledged as failed; empty: no
    // contributor said (no constraint), sent as all ones.
    Bits acked;
};
void combine(Value &into, const Value &from);  // AND flags and acked, OR the rest

enum class Kind : int32_t {
    up = 1,    // child -> parent: subtree's contributions and what it carries
    propose,   // parent -> child: the epoch's proposal
    ack,       // child -> parent: the whole subtree holds the proposal
    commit,    // parent -> child: decided
    done,      // child -> parent: the whole subtree decided
    release,   // parent -> child: everyone decided; forget the instance
    released,  // an answer from a process that already forgot the instance
};

// What an `up` carries beside the contributions: the best a subtree knows.
enum class Carried : int32_t { nothing = 0, proposal = 1, decision = 2 };

struct Message {
    Kind kind = Kind::up;
    uint32_t instance = 0;
    int32_t sender = -1;
    Bits ballot;
    Value value;  // up: the subtree's contributions; others: the proposed/decided value
    Carried carried = Carried::nothing;
    Bits carried_ballot;
    Value carried_value;
    // Filled in by the board as the message leaves, for the board that
    // receives it (the machines do not read them): every instance below
    // `settled` is decided at the sender, and the sender knows that every
    // instance below `all_settled` is decided at every participant.
    uint32_t settled = 0;
    uint32_t all_settled = 0;
};

// Every message of an n-member communicator has the same size.
size_t message_ints(int n);
// Into `out` (its old content replaced; its capacity reused).
void encode(const Message &, int n, std::vector<int32_t> &out);
std::vector<int32_t> encode(const Message &, int n);
// False for a message that does not fit this communicator (size, kind).
bool decode(const int32_t *ints, size_t count, int n, Message &out);

}  // namespace ftmpi::ulfm::wire
