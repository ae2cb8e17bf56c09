// The shared-memory segment of a communicator whose members all run on
// this host: what the shared-memory collectives (node.hpp) read and write
// instead of sending messages.
//
// Layout: a header line, then one block per member: a line it writes when
// it arrives at a barrier, a line it writes when it has finished a
// collective, a line with its bell, then two rings of data slots: 16 short
// slots of one cache line (up to 48 bytes of data) and 4 long ones (up to
// the segment's capacity). A collective whose data fits a short slot uses
// short slot n % 16, any other long slot n % 4, so a member can run 15 (3)
// collectives ahead of the slowest reader before it waits for its slot. A
// slot starts with its sequence word, the number of the collective whose
// data it holds, and the data follows on the same line: a short message
// and the word saying it is there cross between cores together.
// Everything shared is a plain integer accessed through std::atomic_ref: no
// C++ object lives in the mapping, so processes built alike agree on it.
//
// Collectives are numbered 1, 2, … per communicator (every member runs the
// same ones in the same order). A member's `arrived` word is the number of
// the last barrier it arrived at; its `finished` word the last collective
// it has finished reading others' data for.
//
// Waking: every word a member waits on is written by one member, and each
// member has a futex word `bell` with a count of `sleepers` on a line of
// their own. A member about to block counts itself in the sleepers of the
// member it waits for and sleeps on that one's bell; a member that
// publishes, arrives or finishes rings its own bell when anyone sleeps on
// it (one load of a line that is rarely written), so only the members
// waiting for it wake.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ftmpi::coll::node {

constexpr uint64_t segment_magic = 0x334c4c4f43504d46ull;  // "FMPCOLL3" in memory order
constexpr size_t line = 64;
constexpr size_t slot_data_offset = 16;  // after the sequence word, aligned for any element type
constexpr size_t short_slots = 16;
constexpr size_t short_slot_bytes = line - slot_data_offset;  // data bytes of a short slot
constexpr size_t long_slots = 4;

// Which ring a collective's slots are in: short slots for data of up to
// short_slot_bytes, long ones for more.
struct Ring {
    bool is_short;
    static Ring for_bytes(size_t bytes) { return {bytes <= short_slot_bytes}; }
    size_t depth() const { return is_short ? short_slots : long_slots; }
};

struct alignas(line) Header {
    uint64_t magic;
    uint32_t members;
    uint32_t reserved;
    uint64_t buffer_bytes;  // data bytes of each slot
    uint64_t slot_stride;   // bytes from one slot to the next (a multiple of a line)
    uint64_t stride;        // bytes from one member's block to the next
    uint64_t total_bytes;
};

struct alignas(line) MemberBlock {
    uint64_t arrived;                 // written by the member
    alignas(line) uint64_t finished;  // written by the member
    alignas(line) uint32_t bell;      // futex word, bumped by the member to wake its sleepers
    uint32_t sleepers;                // members blocked (or about to block) on bell
    // The slots follow.
};
static_assert(sizeof(Header) == line && sizeof(MemberBlock) == 3 * line, "words on lines of their own");

template <class T>
inline T load_acquire(T &x) {
    return std::atomic_ref<T>(x).load(std::memory_order_acquire);
}
template <class T>
inline void store_release(T &x, T v) {
    std::atomic_ref<T>(x).store(v, std::memory_order_release);
}

// A mapped segment (or none). Movable, not copyable; unmaps when destroyed.
class Segment {
public:
    Segment() = default;
    ~Segment();
    Segment(Segment &&other) noexcept;
    Segment &operator=(Segment &&other) noexcept;
    Segment(const Segment &) = delete;
    Segment &operator=(const Segment &) = delete;

    // Creates and maps a fresh segment for `members` members with data
    // buffers of `buffer_bytes`, under a name no other process uses that
    // begins with `prefix` (the job's file prefix on this host, so the
    // daemon removes it if this process dies before unlinking it). Empty
    // segment and *why on failure.
    static Segment create(const std::string &prefix, int members, size_t buffer_bytes, std::string *why);
    // Maps the segment another member created; checks what the header
    // says against what the caller expects.
    static Segment attach(const std::string &name, int members, size_t buffer_bytes, std::string *why);
    // Removes the name (the mapping stays usable by whoever mapped it).
    void unlink_name() const;

    bool mapped() const { return base_ != nullptr; }
    // Segments this process has mapped now.
    static int live();
    const std::string &name() const { return name_; }
    int members() const { return static_cast<int>(header()->members); }
    size_t buffer_bytes() const { return header()->buffer_bytes; }

    MemberBlock &member(int m) const {
        return *reinterpret_cast<MemberBlock *>(base_ + sizeof(Header) + static_cast<size_t>(m) * header()->stride);
    }
    // Member m's slot for collective n in `ring`: its sequence word and its data.
    uint64_t &sequence(int m, uint64_t n, Ring ring) const { return *reinterpret_cast<uint64_t *>(slot(m, n, ring)); }
    char *data(int m, uint64_t n, Ring ring) const { return slot(m, n, ring) + slot_data_offset; }

    // After member m published, arrived or finished: wakes those that sleep
    // on it, if any.
    void ring(int m) const;
    // Blocks until member m's bell rings past `seen` or `timeout_us`
    // passes. Callers count themselves in m's sleepers first, then read
    // the bell, then look at what they wait for once more.
    void sleep(int m, uint32_t seen, long timeout_us) const;
    uint32_t bell(int m) const { return load_acquire(member(m).bell); }
    std::atomic_ref<uint32_t> sleepers(int m) const { return std::atomic_ref<uint32_t>(member(m).sleepers); }

private:
    Header *header() const { return reinterpret_cast<Header *>(base_); }
    char *slot(int m, uint64_t n, Ring ring) const {
        char *rings = reinterpret_cast<char *>(&member(m)) + sizeof(MemberBlock);
        if (ring.is_short) return rings + (n % short_slots) * line;
        return rings + short_slots * line + (n % long_slots) * header()->slot_stride;
    }
    void unmap();

    char *base_ = nullptr;
    size_t bytes_ = 0;
    std::string name_;
};

}  // namespace ftmpi::coll::node
