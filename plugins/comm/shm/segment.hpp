// The shared-memory inbox of one rank: its layout, its names, and how it is
// created by its owner and attached by its senders.
//
// Each rank owns one POSIX shared-memory segment, /ftmpi.<job>.<rank>.<inc>
// (mode 0600), and a FIFO beside it in /dev/shm that wakes the owner. The
// segment holds a header and one slot per possible sender rank; a slot is a
// single-producer single-consumer byte ring (the sender writes, the owner
// reads) with its control words. Everything shared is a plain integer read
// and written through std::atomic_ref, so no C++ object lives in the mapping.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/types.h>

namespace ftmpi::shm {

constexpr uint64_t segment_magic = 0x3147534d54504d46ull;  // "FMPTMSG1" in memory order
constexpr uint32_t segment_version = 1;
constexpr size_t cache_line = 64;
constexpr size_t job_text_max = 128;
constexpr size_t host_key_max = 128;

// Slot states (SlotControl::state).
constexpr uint32_t slot_free = 0;
constexpr uint32_t slot_attached = 1;
constexpr uint32_t slot_joining = 2;  // claimed by a REBUILD replacement: not read before it is admitted

struct alignas(cache_line) SegmentHeader {
    uint64_t magic;
    uint32_t version;
    uint32_t slots;        // ranks in the job: one slot per sender
    uint64_t ring_bytes;   // data bytes of every ring (a power of two)
    uint64_t slot_stride;  // bytes from one slot to the next
    uint64_t total_bytes;  // the segment's size
    int32_t owner_pid;
    int32_t owner_rank;
    int32_t owner_incarnation;
    int32_t reserved;
    char job[job_text_max];  // the job id as given (NUL-terminated, truncated)
    char host_key[host_key_max];
    alignas(cache_line) uint32_t ready;     // 1 once the owner initialized all of the above
    alignas(cache_line) uint32_t sleeping;  // the owner may block on its FIFO: wake it
    alignas(cache_line) uint64_t posted;    // bumped for events outside the rings: room freed, a join
};

// Control words of one ring; the ring's bytes follow at the next cache line.
struct alignas(cache_line) SlotControl {
    // Written by the sender.
    uint64_t head;  // bytes published (monotonic)
    int32_t sender_pid;
    int32_t sender_incarnation;
    uint32_t state;                           // slot_free, slot_attached, slot_joining
    int32_t sender_round;                     // a replacement's recovery round
    uint64_t join_base;                       // head when the current sender claimed the slot
    alignas(cache_line) uint64_t tail;        // bytes consumed, written by the owner
    alignas(cache_line) uint32_t want_space;  // the sender waits for room: the owner kicks it
};

static_assert(sizeof(SlotControl) == 3 * cache_line, "sender words, tail and want_space on lines of their own");
static_assert(std::atomic_ref<uint64_t>::is_always_lock_free && std::atomic_ref<uint32_t>::is_always_lock_free,
              "shared words must be lock-free to work across processes");

template <class T>
inline T load_acquire(T &x) {
    return std::atomic_ref<T>(x).load(std::memory_order_acquire);
}
template <class T>
inline T load_relaxed(T &x) {
    return std::atomic_ref<T>(x).load(std::memory_order_relaxed);
}
template <class T>
inline void store_relaxed(T &x, T v) {
    std::atomic_ref<T>(x).store(v, std::memory_order_relaxed);
}
template <class T>
inline void store_release(T &x, T v) {
    std::atomic_ref<T>(x).store(v, std::memory_order_release);
}
template <class T>
inline T load_seq(T &x) {
    return std::atomic_ref<T>(x).load(std::memory_order_seq_cst);
}
template <class T>
inline void store_seq(T &x, T v) {
    std::atomic_ref<T>(x).store(v, std::memory_order_seq_cst);
}
template <class T>
inline T exchange_seq(T &x, T v) {
    return std::atomic_ref<T>(x).exchange(v, std::memory_order_seq_cst);
}

// Bytes of one slot (control + ring) and of a whole segment.
size_t slot_stride(size_t ring_bytes);
size_t segment_bytes(int slots, size_t ring_bytes);

// A mapped segment, owned or attached.
struct Mapping {
    SegmentHeader *header = nullptr;
    size_t length = 0;
    SlotControl *slot(int sender) const;
    char *ring(int sender) const;
};

// "/ftmpi.<job>.<rank>.<inc>" with the job reduced to [A-Za-z0-9_-], and the
// FIFO's path "/dev/shm/ftmpi.<job>.<rank>.<inc>.wake".
std::string segment_name(const std::string &job, int rank, int incarnation);
std::string wake_path(const std::string &job, int rank, int incarnation);

// This host's key: the boot id and the network and pid namespaces' inodes.
// Processes with the same key share /dev/shm, see each other's pids and may
// read each other's memory; different keys never use shared memory.
std::string host_key();

struct CreateArgs {
    std::string job;
    int rank = 0;
    int size = 0;
    int incarnation = 0;
    size_t ring_bytes = 0;
    std::string host_key;
};

// Creates the owner's FIFO (opened O_RDWR|O_NONBLOCK into *wake_fd) and its
// segment, initialized and marked ready. A leftover of a dead process of the
// same name is replaced. Throws std::runtime_error with the reason.
Mapping create_inbox(const CreateArgs &, int *wake_fd);
// Unmaps, and removes the names of an inbox created by this process.
void destroy_inbox(Mapping &, const std::string &job, int rank, int incarnation);

enum class AttachResult { attached, not_yet, refused };
struct Expect {
    std::string job;
    int rank = 0;  // the owner's rank
    int size = 0;
    int incarnation = 0;
    std::string host_key;
};
// Maps a peer's inbox when it exists, is ready and matches `expect` (our
// uid, 0600, magic, version, job, rank, size, incarnation, host). refused
// comes with the reason in *why.
AttachResult attach_inbox(const Expect &expect, Mapping *out, std::string *why);
void unmap(Mapping &);

}  // namespace ftmpi::shm
