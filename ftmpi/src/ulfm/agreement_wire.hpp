// What the agreement's messages carry, and their encoding.
//
// Sets of communicator ranks are bitmaps (Bits). A *ballot* is the set of
// members the sender knows failed: every participant of one epoch has the
// same set, so the set names the epoch. Ballots are totally ordered by
// (number of members, then the bitmap's words), and a process's ballot only
// grows, so its epochs only move up in that order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ftmpi::ulfm::wire {

using Bits = std::vector<uint32_t>;

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
};

// Every message of an n-member communicator has the same size.
size_t message_ints(int n);
std::vector<int32_t> encode(const Message &, int n);
// False for a message that does not fit this communicator (size, kind).
bool decode(const int32_t *ints, size_t count, int n, Message &out);

}  // namespace ftmpi::ulfm::wire
